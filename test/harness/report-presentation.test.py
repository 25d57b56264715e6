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

ok = True
for chart in re.findall(r'<svg id="chart-[^"]*".*?</svg>', html):
    ticks = [float(v) for v in re.findall(r'text-anchor="end">([0-9.]+)</text>', chart)]
    if len(ticks) < 2:
        continue
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    ok &= any(abs(mantissa - m) < 1e-9 for m in (1, 2, 5))
    ok &= all(abs(t - i * step) < 1e-9 for i, t in enumerate(ticks))
print("round ticks:", "yes" if ok else "no")
