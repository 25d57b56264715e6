import jax
import jax.numpy as jnp
from jax import lax


def _exact(x):
    # The rounded step itself: a select XLA cannot fuse into an FMA or skip.
    return jnp.where(jnp.isnan(x), jnp.asarray(jnp.nan, x.dtype), x)


def _maximum(a, b):
    r = jnp.where(a == b, jnp.where(jnp.signbit(a), b, a), jnp.where(a > b, a, b))
    return jnp.where(jnp.isnan(a), a, jnp.where(jnp.isnan(b), b, r))


def _minimum(a, b):
    r = jnp.where(a == b, jnp.where(jnp.signbit(a), a, b), jnp.where(a < b, a, b))
    return jnp.where(jnp.isnan(a), a, jnp.where(jnp.isnan(b), b, r))


def _sort(operands, dimension, descending, key=None):
    # Stable; descending sorts the reversed operands and reverses the result.
    if key is not None:
        operands = (key,) + tuple(operands)
    if descending:
        operands = tuple(lax.rev(x, (dimension,)) for x in operands)
    results = lax.sort(tuple(operands), dimension=dimension, is_stable=True,
                       num_keys=1)
    if descending:
        results = tuple(lax.rev(x, (dimension,)) for x in results)
    return tuple(results[1:]) if key is not None else tuple(results)


def _canonical(x):
    # -0.0 as +0.0 and every NaN as the positive quiet NaN.
    x = jnp.where(x == 0, jnp.zeros_like(x), x)
    return jnp.where(jnp.isnan(x), jnp.asarray(jnp.nan, x.dtype), x)


def _total_key(x):
    # Integers in the order of SEMANTICS.md's float total order.
    width = {2: jnp.int16, 4: jnp.int32, 8: jnp.int64}[x.dtype.itemsize]
    bits = lax.bitcast_convert_type(_canonical(x), width)
    key = jnp.where(bits < 0, bits ^ jnp.asarray(jnp.iinfo(width).max, width),
                    bits)
    return key.astype(jnp.int32) if x.dtype.itemsize == 2 else key


def _nms_boxes(boxes, center):
    # [B, N, 5]: ymin, xmin, ymax, xmax, area, each step in f32.
    b = boxes.astype(jnp.float32)
    if center:
        half_w, half_h = _exact(b[..., 2] / 2), _exact(b[..., 3] / 2)
        ymin, xmin = b[..., 1] - half_h, b[..., 0] - half_w
        ymax, xmax = b[..., 1] + half_h, b[..., 0] + half_w
    else:
        ymin, ymax = _minimum(b[..., 0], b[..., 2]), _maximum(b[..., 0], b[..., 2])
        xmin, xmax = _minimum(b[..., 1], b[..., 3]), _maximum(b[..., 1], b[..., 3])
    area = _exact((ymax - ymin) * (xmax - xmin))
    return jnp.stack([ymin, xmin, ymax, xmax, area], axis=-1)


def _nms_iou(a, b):
    zero = jnp.zeros((), jnp.float32)
    height = _maximum(zero, _minimum(a[..., 2], b[..., 2]) -
                      _maximum(a[..., 0], b[..., 0]))
    width = _maximum(zero, _minimum(a[..., 3], b[..., 3]) -
                     _maximum(a[..., 1], b[..., 1]))
    inter = _exact(height * width)
    union = (a[..., 4] + b[..., 4]) - inter
    none = (inter <= 0) | (a[..., 4] <= 0) | (b[..., 4] <= 0) | (union <= 0)
    return jnp.where(none, zero, inter / union)


def _nms_select(boxes, candidate, order, slots, iou_threshold):
    # Per (batch, class): the kept boxes [B, C, slots] (-1 after count).
    batches, classes, n = candidate.shape
    per_class = jnp.broadcast_to(boxes[:, None], (batches, classes, n, 5))
    seen = jnp.sum(candidate, axis=2, dtype=jnp.int32)
    slot = lax.broadcasted_iota(jnp.int32, (batches, classes, slots), 2)
    threshold = jnp.asarray(iou_threshold, jnp.float32)

    def more(state):
        i, _, count = state
        return (i < n) & jnp.any((i < seen) & (count < slots))

    def visit(state):
        i, kept, count = state
        box = order[:, :, i]
        mine = jnp.take_along_axis(per_class, box[:, :, None, None], axis=2)
        theirs = jnp.take_along_axis(per_class, jnp.maximum(kept, 0)[..., None],
                                     axis=2)
        hit = (slot < count[..., None]) & (_nms_iou(theirs, mine) > threshold)
        keep = (i < seen) & (count < slots) & ~jnp.any(hit, axis=2)
        kept = jnp.where(keep[..., None] & (slot == count[..., None]),
                         box[..., None], kept)
        return i + 1, kept, count + keep.astype(jnp.int32)

    kept = jnp.full((batches, classes, slots), -1, jnp.int32)
    count = jnp.zeros((batches, classes), jnp.int32)
    _, kept, count = lax.while_loop(more, visit, (0, kept, count))
    return kept, count


def _nms(boxes, scores, max_out, iou_threshold, score_threshold, center):
    # ONNX NonMaxSuppression, rows padded with -1 to B * C * max_out.
    batches, classes, n = scores.shape
    rows = batches * classes * max(max_out, 0)
    if rows == 0 or n == 0:
        return jnp.full((rows, 3), -1, jnp.int64), jnp.zeros((1,), jnp.int64)
    s = scores.astype(jnp.float32)
    candidate = jnp.ones(s.shape, jnp.bool_)
    if score_threshold is not None:
        candidate = s > jnp.asarray(score_threshold, jnp.float32)
    key = jnp.where(candidate, _total_key(s), jnp.iinfo(jnp.int32).min)
    (order,) = _sort((lax.broadcasted_iota(jnp.int32, s.shape, 2),), 2, True,
                     key=key)
    slots = min(max_out, n)
    kept, count = _nms_select(_nms_boxes(boxes, center), candidate, order,
                              slots, iou_threshold)
    shape = (batches, classes, slots)
    valid = lax.broadcasted_iota(jnp.int32, shape, 2) < count[..., None]
    columns = [jnp.where(valid, c, -1).reshape(-1) for c in (
        lax.broadcasted_iota(jnp.int64, shape, 0),
        lax.broadcasted_iota(jnp.int64, shape, 1), kept.astype(jnp.int64))]
    columns = _sort(columns, 0, False, key=(~valid).reshape(-1).astype(jnp.int32))
    selected = jnp.stack(columns, axis=1)
    selected = jnp.pad(selected, ((0, rows - selected.shape[0]), (0, 0)),
                       constant_values=-1)
    return selected, jnp.sum(count, dtype=jnp.int64).reshape(1)


def program(*args):
    v0, v1 = args
    v2, v3 = _nms(v0, v1, 4, float.fromhex('0x1.333334p-2'), None, False)
    return (v2, v3)
