// The report's only style sheet, inlined (the page loads nothing): screen and print.
export const REPORT_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.6 system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans JP",sans-serif;color:#1a202c;background:#f7fafc}
main{max-width:980px;margin:0 auto;padding:32px 24px 48px;background:#fff}
h1{font-size:26px;margin:0 0 4px}
.kicker{color:#4a5568;font-size:13px;letter-spacing:.04em;text-transform:uppercase;margin:0}
h2{font-size:19px;margin:32px 0 12px;padding-bottom:4px;border-bottom:2px solid #e2e8f0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dl.facts dt{color:#4a5568}
dl.facts dd{margin:0;word-break:break-all}
.tags{display:flex;flex-wrap:wrap;gap:6px;list-style:none;padding:0;margin:0}
.tags li{background:#edf2f7;border-radius:12px;padding:2px 10px;font-size:13px}
.instruction{background:#ebf8ff;border-left:4px solid #3182ce;padding:8px 12px;margin:0 0 12px;white-space:pre-wrap}
.quote{display:flex;gap:12px;margin:12px 0;page-break-inside:avoid;break-inside:avoid}
.quote img{width:160px;height:auto;border-radius:4px;flex:none}
.quote h3{font-size:15px;margin:0}
.quote blockquote{margin:4px 0;padding-left:10px;border-left:3px solid #cbd5e0;color:#2d3748}
.muted{color:#718096;font-size:13px}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{border-bottom:1px solid #e2e8f0;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f7fafc}
tr{page-break-inside:avoid;break-inside:avoid}
td img{width:120px;height:auto;border-radius:3px;display:block}
td.time,td.num{white-space:nowrap;font-variant-numeric:tabular-nums}
.answer p{margin:0 0 10px;white-space:pre-wrap}
ol.captions{list-style:none;padding:0;margin:0}
ol.captions li{display:flex;gap:12px;padding:2px 0}
ol.captions time{flex:none;color:#4a5568;font-variant-numeric:tabular-nums}
footer{margin-top:32px;color:#718096;font-size:12px}
@media print{
  body{background:#fff;font-size:11pt}
  main{max-width:none;padding:0}
  h2{page-break-after:avoid;break-after:avoid}
  .quote img{width:120px}
  td img{width:90px}
  a{color:inherit;text-decoration:none}
}
`;
