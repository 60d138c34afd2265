/** Styles of the hosted pages, inlined so each page is one self-contained response (no asset route). */
export const PAGE_STYLES = `
:root{--bg:#f3f4f8;--card:#fff;--text:#1b1f29;--muted:#5b6475;--border:#d5d9e2;--accent:#3451d1;
--accent-hover:#2a42ad;--on-accent:#fff;--focus:#8ea2ff;--danger:#b42318;--danger-bg:#fef3f2;--ok:#067647;--ok-bg:#ecfdf3;
color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0f1117;--card:#181b24;--text:#eef0f6;--muted:#a3abbd;
--border:#343a4a;--accent:#7088ff;--accent-hover:#8b9dff;--on-accent:#0f1117;--focus:#aab8ff;--danger:#ff8a80;--danger-bg:#2a1614;
--ok:#6ce9a6;--ok-bg:#0f2a1d}}
*{box-sizing:border-box}
html,body{margin:0;min-height:100%}
body{font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:var(--text);background:radial-gradient(1200px 600px at 50% -10%,rgba(52,81,209,.12),transparent),var(--bg);
display:flex;flex-direction:column;align-items:center;justify-content:center;padding:48px 16px}
.skip{position:absolute;left:-9999px}.skip:focus{left:16px;top:16px;background:var(--card);padding:8px 12px}
main{width:100%;max-width:400px}
.card{background:var(--card);border:1px solid var(--border);border-radius:16px;padding:32px;
box-shadow:0 1px 2px rgba(16,24,40,.05),0 12px 32px -12px rgba(16,24,40,.18)}
.brand{display:flex;align-items:center;gap:12px;margin-bottom:24px}
.mark{width:40px;height:40px;border-radius:10px;background:linear-gradient(135deg,var(--accent),#7b5cff);
color:#fff;display:grid;place-items:center;font-weight:700;font-size:18px}
.brand-name{font-weight:600;color:var(--muted);font-size:14px}
h1{font-size:24px;line-height:1.25;margin:0 0 4px;letter-spacing:-.01em}
.lead{color:var(--muted);margin:0 0 24px;font-size:15px}
.field{margin-bottom:16px}
label{display:block;font-weight:600;font-size:14px;margin-bottom:6px}
input[type=email],input[type=password],input[type=text]{width:100%;font:inherit;color:inherit;
background:transparent;border:1px solid var(--border);border-radius:10px;padding:10px 12px;min-height:44px}
input:focus-visible{outline:3px solid var(--focus);outline-offset:1px;border-color:var(--accent)}
input[aria-invalid=true]{border-color:var(--danger)}
input.code{letter-spacing:.4em;font-family:"SFMono-Regular",Consolas,monospace;font-size:20px;text-align:center}
.hint{color:var(--muted);font-size:13px;margin-top:4px}
button{width:100%;font:inherit;font-weight:600;border:0;border-radius:10px;padding:12px 16px;min-height:44px;
background:var(--accent);color:var(--on-accent);cursor:pointer}
button:hover{background:var(--accent-hover)}
button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
button.secondary{background:transparent;color:var(--accent);border:1px solid var(--border);margin-top:12px}
.alert{border-radius:10px;padding:12px 14px;margin-bottom:20px;font-size:14px}
.alert:empty{display:none}
.alert.error{background:var(--danger-bg);color:var(--danger);border:1px solid currentColor}
.alert.ok{background:var(--ok-bg);color:var(--ok);border:1px solid currentColor}
.foot{margin-top:24px;text-align:center;color:var(--muted);font-size:13px}
.foot a,.card a{color:var(--accent)}
.meta{color:var(--muted);font-size:13px;margin-top:16px;overflow-wrap:anywhere}
details{margin-top:16px}
summary{cursor:pointer;color:var(--accent);font-weight:600;padding:10px 0}
summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:4px}
@media (prefers-reduced-motion:no-preference){button{transition:background .15s}}
`;
