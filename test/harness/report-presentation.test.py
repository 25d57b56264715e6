"""Checks report.html and report.json of report-presentation.test."""
import json, math, re, sys

rep = sys.argv[1]
html = open(rep + "/report.html").read()
data = json.load(open(rep + "/report.json"))

table = html[html.index('<table id="table-signatures"'):]
table = table[:table.index("</table>")]
order = ["new", "open", "flaky", "seen", "fixed"]
keys = []
for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]:
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    keys.append((order.index(cells[0]), -int(cells[6])))
ok = keys == sorted(keys) and len(keys) > 1
print("sorted by status then count:", "yes" if ok else "no %s" % keys)

sigs = data["signatures"]
ok = all(sum(s["per_night"]) == s["count"] and len(s["per_night"]) == 2 for s in sigs)
print("per night sums to the count:", "yes" if ok else "no",
      "(%d signatures, %d nights)" % (len(sigs), len(data["nights"])))
print("options:", " | ".join(n["options"] for n in data["nights"]))

new = html[html.index('<h2 id="new-tonight">'):]
print("new tonight:", re.sub("<[^>]+>", "", new[:new.index("</p>")]).replace("New tonight", "", 1))

ok = 'data-table="table-signatures"' in html and "input.filter" in html
print("filter box over table-signatures:", "yes" if ok else "no")

# Axis ticks: a value axis's grid line and its label (a bar chart's
# category labels are right-aligned too, so only the labels beside a grid
# line count). Every chart with ticks has at least two, at round steps
# from 0; a report in which no chart has any ticks fails.
ok = True
ticked = []
for chart in re.findall(r'<svg id="chart-[^"]*".*?</svg>', html, re.S):
    labels = re.findall(r'class="grid"/><text [^>]*text-anchor="end">([^<]*)</text>', chart)
    if not labels:
        continue
    ticked.append(re.match(r'<svg id="([^"]*)"', chart).group(1))
    try:
        ticks = [float(v) for v in labels]
    except ValueError:
        ok = False
        continue
    if len(ticks) < 2 or ticks[0] != 0 or ticks[1] <= 0:
        ok = False
        continue
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    ok &= any(abs(mantissa - m) < 1e-9 for m in (1, 2, 5))
    ok &= all(abs(t - i * step) < 1e-9 * max(1, step) for i, t in enumerate(ticks))
ok &= len(ticked) > 0
print("round ticks:", "yes" if ok else "no", "(charts with axis ticks: %s)" % (" ".join(ticked) or "none"))
