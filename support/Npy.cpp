//===- support/Npy.cpp - NumPy .npy files for host tensors --------===//
//
// The `.npy` reader and writer. The header is a Python dict literal; the
// reader parses the subset NumPy writes ('descr', 'fortran_order', 'shape',
// in any order, either quote style, optional trailing commas, Python 2 `L`
// suffixes) with bounds checks on every byte, since files come from outside.
//
//===----------------------------------------------------------------------===//

#include "support/Npy.h"

#include "support/FileIO.h"

#include <cstring>
#include <limits>

using namespace sift;

namespace {

constexpr uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/// Cursor over the header dict text with the small parsers it needs. Every
/// failure sets `error` and returns false.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  std::string error;

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool atEnd() const { return pos_ >= text_.size(); }
  bool peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  bool consume(char c) {
    skipSpace();
    if (!peek(c))
      return false;
    ++pos_;
    return true;
  }
  bool expect(char c, const char *where) {
    if (consume(c))
      return true;
    return fail(std::string("expected '") + c + "' " + where + ", found " +
                found());
  }
  bool fail(std::string message) {
    if (error.empty())
      error = std::move(message);
    return false;
  }
  std::string found() const {
    if (atEnd())
      return "the end of the header";
    return "'" + std::string(1, text_[pos_]) + "' at header offset " +
           std::to_string(pos_);
  }

  /// A Python string literal in single or double quotes (no escapes).
  bool parseString(std::string &out) {
    skipSpace();
    if (!peek('\'') && !peek('"'))
      return fail("expected a quoted string, found " + found());
    char quote = text_[pos_++];
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\')
        return fail("escape sequences in header strings are not supported");
      ++pos_;
    }
    if (atEnd())
      return fail("unterminated string in the header");
    out.assign(text_.substr(start, pos_ - start));
    ++pos_;
    return true;
  }

  /// Python True or False.
  bool parseBool(bool &out) {
    skipSpace();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      out = true;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      out = false;
      return true;
    }
    return fail("expected True or False, found " + found());
  }

  /// A non-negative decimal integer, optionally with a Python 2 `L` suffix.
  bool parseDim(int64_t &out) {
    skipSpace();
    if (atEnd() || text_[pos_] < '0' || text_[pos_] > '9')
      return fail("expected a non-negative dimension, found " + found());
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
        return fail("a dimension in the shape overflows 64 bits");
      value = value * 10 + digit;
      ++pos_;
    }
    if (peek('L') || peek('l'))
      ++pos_;
    out = value;
    return true;
  }

  /// A Python tuple of dimensions: "()", "(5,)", "(4, 8)", "(4, 8,)".
  bool parseShape(std::vector<int64_t> &out) {
    if (!expect('(', "to open the shape tuple"))
      return false;
    out.clear();
    if (consume(')'))
      return true;
    while (true) {
      int64_t dim;
      if (!parseDim(dim))
        return false;
      out.push_back(dim);
      if (consume(')'))
        return true;
      if (!expect(',', "between shape dimensions"))
        return false;
      if (consume(')'))
        return true;
    }
  }

private:
  std::string_view text_;
  size_t pos_ = 0;
};

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Parses the header dict; on failure returns the reason.
std::optional<std::string> parseHeaderDict(std::string_view text,
                                           NpyHeader &header) {
  HeaderParser p(text);
  bool seenDescr = false, seenOrder = false, seenShape = false;
  if (!p.expect('{', "at the start of the header dict"))
    return p.error;
  while (!p.consume('}')) {
    std::string key;
    if (!p.parseString(key) || !p.expect(':', "after a header key"))
      return p.error;
    bool *seen = nullptr;
    bool ok;
    if (key == "descr") {
      seen = &seenDescr;
      ok = p.parseString(header.descr);
    } else if (key == "fortran_order") {
      seen = &seenOrder;
      ok = p.parseBool(header.fortranOrder);
    } else if (key == "shape") {
      seen = &seenShape;
      ok = p.parseShape(header.shape);
    } else {
      return "unknown header key '" + key + "'";
    }
    if (!ok)
      return "in '" + key + "': " + p.error;
    if (*seen)
      return "header key '" + key + "' appears twice";
    *seen = true;
    if (p.consume('}'))
      break;
    if (!p.expect(',', "between header entries"))
      return p.error;
  }
  p.skipSpace();
  if (!p.atEnd())
    return "unexpected " + p.found() + " after the header dict";
  if (!seenDescr)
    return std::string("the header has no 'descr'");
  if (!seenOrder)
    return std::string("the header has no 'fortran_order'");
  if (!seenShape)
    return std::string("the header has no 'shape'");
  return std::nullopt;
}

std::string shapeTuple(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

uint32_t readLe(const uint8_t *p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

} // namespace

std::string_view sift::npyDtype(ElementType type) {
  switch (type) {
  case ElementType::I32: return "<i4";
  case ElementType::I64: return "<i8";
  case ElementType::F16: return "<f2";
  case ElementType::F32: return "<f4";
  case ElementType::F64: return "<f8";
  // NumPy has no bfloat16: ml_dtypes saves it as two opaque bytes, which
  // iree-run-module reads as bf16 too.
  case ElementType::BF16: return "<V2";
  }
  return "?";
}

std::optional<ElementType> sift::parseNpyDtype(std::string_view dtype) {
  if (dtype == "|V2") // NumPy's own spelling of the same two bytes
    return ElementType::BF16;
  for (ElementType type : kAllElementTypes)
    if (npyDtype(type) == dtype)
      return type;
  return std::nullopt;
}

Result<HostTensor> sift::parseNpy(const uint8_t *data, size_t size,
                                  const std::string &name) {
  auto error = [&](const std::string &what) {
    return makeError(name + ": " + what);
  };
  if (size < sizeof(kMagic) || std::memcmp(data, kMagic, sizeof(kMagic)) != 0)
    return error("not a .npy file (it does not start with \"\\x93NUMPY\")");
  if (size < 8)
    return error("truncated .npy file: " + std::to_string(size) +
                 " bytes end inside the format version");
  unsigned major = data[6], minor = data[7];
  if ((major != 1 && major != 2) || minor != 0)
    return error("unsupported .npy format version " + std::to_string(major) +
                 "." + std::to_string(minor) +
                 " (this reader supports 1.0 and 2.0)");
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (size < 8 + lengthBytes)
    return error("truncated .npy file: " + std::to_string(size) +
                 " bytes end inside the header length");
  size_t headerLength = readLe(data + 8, static_cast<int>(lengthBytes));
  size_t headerStart = 8 + lengthBytes;
  if (headerLength > size - headerStart)
    return error("truncated .npy file: the header declares " +
                 std::to_string(headerLength) + " bytes but only " +
                 std::to_string(size - headerStart) + " follow");
  std::string_view headerText(
      reinterpret_cast<const char *>(data) + headerStart, headerLength);
  for (char c : headerText)
    if (static_cast<unsigned char>(c) >= 0x80 ||
        (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' &&
         c != '\r'))
      return error("the header contains a non-ASCII or control byte");

  NpyHeader header;
  if (auto reason = parseHeaderDict(headerText, header))
    return error("malformed header: " + *reason);
  if (header.fortranOrder)
    return error("Fortran-order arrays are not supported (fortran_order is "
                 "True); save the array in C order");
  std::optional<ElementType> type = parseNpyDtype(header.descr);
  if (!type) {
    if (!header.descr.empty() && header.descr[0] == '>')
      return error("dtype '" + header.descr +
                   "' is big-endian; only little-endian dtypes are supported");
    return error("unsupported dtype '" + header.descr +
                 "' (supported: <f2 <f4 <f8 <i4 <i8, and <V2 or |V2 for bf16)");
  }

  uint64_t elements = 1;
  bool overflow = false;
  for (int64_t dim : header.shape) {
    uint64_t d = static_cast<uint64_t>(dim);
    if (d != 0 && elements > std::numeric_limits<uint64_t>::max() / d)
      overflow = true;
    else
      elements *= d;
  }
  uint64_t width = byteWidth(*type);
  if (!overflow && elements > std::numeric_limits<uint64_t>::max() / width)
    overflow = true;
  std::string declared = "shape " + shapeTuple(header.shape);
  if (overflow)
    return error("header declares " + declared +
                 ", whose byte size overflows 64 bits");
  uint64_t expectedBytes = elements * width;
  size_t dataBytes = size - headerStart - headerLength;
  if (expectedBytes != dataBytes)
    return error("header declares " + declared + " = " +
                 std::to_string(elements) + " elements of " + header.descr +
                 " (" + std::to_string(expectedBytes) + " bytes) but " +
                 std::to_string(dataBytes) + " data bytes follow");

  HostTensor tensor;
  tensor.type = *type;
  tensor.shape = std::move(header.shape);
  tensor.data.assign(data + headerStart + headerLength, data + size);
  return tensor;
}

Result<HostTensor> sift::readNpy(const std::string &path) {
  Result<std::vector<uint8_t>> bytes = readFileBytes(path);
  if (!bytes)
    return bytes.error();
  return parseNpy(bytes->data(), bytes->size(), path);
}

std::vector<uint8_t> sift::encodeNpy(const HostTensor &tensor) {
  std::string dict =
      "{'descr': '" + std::string(npyDtype(tensor.type)) +
      "', 'fortran_order': False, 'shape': " + shapeTuple(tensor.shape) + ", }";
  // Version 1.0 has a 2-byte header length; pad magic + version + length +
  // header + '\n' to a multiple of 64 bytes, as NumPy does.
  size_t prefix = 10;
  size_t total = prefix + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  uint8_t major = 1;
  if (padded - prefix > 0xffff) {
    major = 2;
    prefix = 12;
    total = prefix + dict.size() + 1;
    padded = (total + 63) / 64 * 64;
  }
  dict.append(padded - total, ' ');
  dict += '\n';
  size_t headerLength = dict.size();

  std::vector<uint8_t> out(prefix + headerLength + tensor.data.size());
  std::memcpy(out.data(), kMagic, sizeof(kMagic));
  out[6] = major;
  out[7] = 0;
  for (size_t i = 0; i < prefix - 8; ++i)
    out[8 + i] = static_cast<uint8_t>(headerLength >> (8 * i));
  std::memcpy(out.data() + prefix, dict.data(), headerLength);
  if (!tensor.data.empty())
    std::memcpy(out.data() + prefix + headerLength, tensor.data.data(),
                tensor.data.size());
  return out;
}

Status sift::writeNpy(const std::string &path, const HostTensor &tensor) {
  for (int64_t dim : tensor.shape)
    if (dim < 0)
      return makeError(path + ": cannot write " + describe(tensor) +
                       ": negative dimension");
  uint64_t expected =
      static_cast<uint64_t>(tensor.numElements()) * byteWidth(tensor.type);
  if (expected != tensor.data.size())
    return makeError(path + ": cannot write " + describe(tensor) +
                     ": it needs " + std::to_string(expected) +
                     " data bytes but holds " +
                     std::to_string(tensor.data.size()));
  std::vector<uint8_t> bytes = encodeNpy(tensor);
  return writeFileAtomic(path, bytes.data(), bytes.size());
}
