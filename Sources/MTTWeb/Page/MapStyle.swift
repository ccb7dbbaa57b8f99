/// The map page's style: the map fills the screen; the status, legend and tables beside it on a
/// wide screen, below it on a phone.
enum MapStyle {
    static let text = #"""
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; font: 14px/1.35 system-ui, sans-serif; color: #222; }
body { display: flex; flex-direction: column; }
header { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; padding: 6px 10px; background: #1f3b57; color: #fff; }
header h1 { font-size: 16px; margin: 0 8px 0 0; }
header label { white-space: nowrap; }
header span > label + label { margin-left: 10px; }
#problem { color: #ffd0d0; }
#summary { color: #d8e4f0; }
button.place { display: block; width: 100%; margin: 2px 0; text-align: left; }
main { flex: 1; display: flex; min-height: 0; }
#map { flex: 1; min-height: 300px; background: #e9ecef; }
aside { width: 360px; overflow: auto; padding: 8px 10px; border-left: 1px solid #ccc; background: #fafafa; }
aside h2 { font-size: 14px; margin: 10px 0 4px; color: #555; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
th, td { text-align: left; padding: 2px 4px; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
#status th { width: 32%; color: #555; font-weight: 600; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #666; border-radius: 50%; margin-right: 6px; vertical-align: -2px; }
.swatch.cell { border-radius: 0; }
.swatch.gateway { width: 8px; height: 8px; border: 3px solid #000; background: #fff; }
.swatch.predicted { border: 1px dashed #1565c0; background: rgba(21, 101, 192, 0.2); }
.swatch.diff-new { border: 2px solid #2e7d32; background: rgba(46, 125, 50, 0.3); }
.swatch.diff-lost { border: 2px dashed #c62828; background: rgba(198, 40, 40, 0.3); }
.swatch.silent { border: 1px dashed #2e7d32; background: rgba(46, 125, 50, 0.15); }
table.gw { margin-top: 4px; }
#drawn { font-size: 11px; color: #777; }
@media (max-width: 760px) {
  main { flex-direction: column; }
  #map { flex: none; height: 60vh; }
  aside { width: auto; border-left: none; border-top: 1px solid #ccc; }
}
"""#
}
