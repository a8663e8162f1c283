// The console's one stylesheet, served from the worker's own origin (the CSP allows nothing else).
export const CONSOLE_CSS = `*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff}
a{color:#0550ae}
:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header{border-bottom:1px solid #d0d7de;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header .brand{font-weight:600}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;margin:0;padding:0;align-items:center}
main{max-width:48rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:500}
input[type=text],input[type=email],input[type=datetime-local],textarea{font:inherit;padding:.45rem;width:100%;border:1px solid #8c959f;border-radius:4px}
fieldset{border:1px solid #d0d7de;border-radius:4px;margin:.75rem 0}
fieldset label{display:inline-flex;gap:.4rem;margin:.25rem 1rem .25rem 0;font-weight:400}
button{font:inherit;padding:.45rem 1rem;border:1px solid #1f2328;border-radius:4px;background:#f6f8fa;color:#1f2328;cursor:pointer}
button.primary{background:#1f6feb;border-color:#1f6feb;color:#fff}
.link-button{border:0;background:none;padding:0;color:#0550ae;text-decoration:underline}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#fff8c5;border:1px solid #d4a72c;padding:.75rem;border-radius:4px}
.notice{background:#ddf4ff;border:1px solid #54aeff;padding:.75rem;border-radius:4px}
.error{color:#b42318}.muted{color:#59636e;font-size:.9rem}
.card{border:1px solid #d0d7de;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}
.card h3{margin:.25rem 0;font-size:1.05rem}
.card dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}
.card dt{color:#59636e}.card dd{margin:0;word-break:break-word}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.5rem}.actions form{margin:0}
details{margin-top:.5rem}
select,input[type=date],input[type=week]{font:inherit;padding:.4rem;border:1px solid #8c959f;border-radius:4px;background:#fff;max-width:100%}
.filters select,.filters input{display:block;width:100%}
.targets{padding-left:1.2rem}.targets li{margin:.2rem 0}.url{word-break:break-all}
.status{font-size:.8rem;font-weight:600;padding:0 .35rem;border-radius:4px;background:#eaeef2}
.status-failed{background:#ffebe9;color:#82071e}.status-published{background:#dafbe1;color:#116329}
.week{list-style:none;padding:0}.day{border:1px solid #d0d7de;border-radius:6px;padding:.25rem 1rem;margin:.5rem 0}
.day h3{margin:.4rem 0;font-size:1rem}.day.today{border:2px solid #0969da}.day ul{padding-left:1.2rem}
select{font:inherit;padding:.45rem;width:100%;border:1px solid #8c959f;border-radius:4px;background:#fff}
a.button{display:inline-block;padding:.45rem 1rem;border-radius:4px;text-decoration:none}
a.button.primary{background:#1f6feb;color:#fff}
.members{list-style:none;padding:0}.members li{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;justify-content:space-between}
.card h4{margin:.75rem 0 .25rem}
input[type=url],select{font:inherit;padding:.45rem;width:100%;border:1px solid #8c959f;border-radius:4px}
code,.card h3{overflow-wrap:anywhere}.log{list-style:none;padding:0}.log li{margin:.6rem 0}
.replies{list-style:none;padding-left:.75rem;border-left:3px solid #d0d7de}.comment-text{white-space:pre-wrap;overflow-wrap:anywhere}
`;
