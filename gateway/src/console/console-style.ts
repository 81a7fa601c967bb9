// The console's one stylesheet, served from /console/console.css (no external fonts or CDN).
// Colours keep text at WCAG AA contrast or better (body #1b1f24 on #fff, links and buttons
// #0b57a4 = 7:1, errors #a4161a = 7.6:1) and every focusable element shows a visible outline.
export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;background:#fff;margin:0;line-height:1.45}
a{color:#0b57a4}
:focus-visible{outline:3px solid #e8a600;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1.25rem;background:#f2f4f7;border-bottom:1px solid #c9ced6}
header nav a{margin-right:1rem;font-weight:600}
header nav a[aria-current=page]{color:#1b1f24;text-decoration:none;border-bottom:3px solid #0b57a4}
main{max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
form{margin:0}
.field{display:flex;flex-direction:column;gap:.25rem;margin:0 0 .9rem;max-width:28rem}
label,legend{font-weight:600}
input,select,textarea{font:inherit;padding:.45rem .5rem;border:1px solid #6b7280;border-radius:4px;color:#1b1f24;background:#fff}
input[aria-invalid=true],select[aria-invalid=true],fieldset[aria-invalid=true]{border-color:#a4161a;border-width:2px}
.hint{color:#4b5563;font-size:.9rem;margin:0}
.field-error{color:#a4161a;font-weight:600;margin:.2rem 0 0}
.alert{border:2px solid #a4161a;background:#fdf0f0;color:#7a1013;padding:.6rem .8rem;border-radius:4px;margin:0 0 1rem}
.notice{border:2px solid #1f7a3a;background:#eef8f1;color:#14532d;padding:.6rem .8rem;border-radius:4px;margin:0 0 1rem}
.alert:empty,.notice:empty{display:none}
button{font:inherit;font-weight:600;padding:.45rem .9rem;border-radius:4px;border:1px solid #0b57a4;background:#0b57a4;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b57a4}
button.danger{background:#fff;color:#a4161a;border-color:#a4161a}
button:disabled{opacity:.6;cursor:wait}
fieldset{border:1px solid #6b7280;border-radius:4px;padding:.6rem .9rem;margin:0 0 .9rem}
fieldset:disabled{opacity:.6}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{text-align:left;vertical-align:top;padding:.45rem .5rem;border-bottom:1px solid #d5d9df}
th{background:#f2f4f7}
.grid td,.grid th{text-align:center}.grid th[scope=row]{text-align:left}
.table-wrap{overflow-x:auto}
code,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,monospace;font-size:.88rem;word-break:break-all}
.secret{display:block;padding:.6rem;background:#fff8e1;border:2px dashed #8a6100;margin:.5rem 0}
pre{background:#f6f8fa;border:1px solid #d5d9df;padding:.6rem;overflow-x:auto;font-size:.85rem}
.panel{border:1px solid #c9ced6;border-radius:6px;padding:1rem;margin:0 0 1.5rem}
.row{display:flex;flex-wrap:wrap;gap:1rem}
.status-revoked,.status-expired{color:#6b2a00}
.chain-valid{color:#14532d;font-weight:700}.chain-broken{color:#a4161a;font-weight:700}
[hidden]{display:none!important}
@media (max-width:40rem){header{padding:.5rem .75rem}main{padding:.75rem}}
`;
