/**
 * The sandbox consent page's HTML (docs/identity.md, "The consent page"): server-rendered, no script, every value
 * escaped. The form carries a CSRF token that must equal its cookie (double submit; the cookie is SameSite=Strict).
 */
import type { ConsentScope, IssuedAuthCode } from '../../application/identity/index.js';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML content and in a quoted attribute. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => entities[c]!);

const scopeLabels: Record<ConsentScope, string> = {
  profile: 'Hồ sơ: tên, ngày sinh, giới tính, ảnh đại diện (profile)',
  phone: 'Số điện thoại (phone)',
  email: 'Địa chỉ e-mail (email)',
};

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="vi">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
fieldset{border:1px solid #ccc;border-radius:.5rem;padding:1rem}label{display:block;margin:.5rem 0}
button{font-size:1rem;padding:.5rem 1rem;margin-right:.5rem}output{display:block;font-family:monospace;word-break:break-all;
background:#f3f3f3;padding:.75rem;border-radius:.5rem}.note{color:#666;font-size:.9rem}
</style>
</head>
<body>
${body}
<p class="note">Sandbox of the host app's consent screen: not for production use.</p>
</body>
</html>
`;
}

export interface ConsentForm {
  csrf: string;
  userId: string;
  userName: string;
  miniAppId: string;
  miniAppName: string;
  /** The consent scopes asked for, and which the user already granted (ticked). */
  requested: readonly ConsentScope[];
  granted: readonly ConsentScope[];
  /** `auth` was asked for too. */
  withAuth: boolean;
  redirectUri: string | null;
  state: string | null;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export function consentFormPage(f: ConsentForm): string {
  const boxes = f.requested
    .map(
      (s) =>
        `<label><input type="checkbox" name="grant" value="${s}"${f.granted.includes(s) ? ' checked' : ''}> ${escapeHtml(scopeLabels[s])}</label>`,
    )
    .join('\n');
  const scope = [...(f.withAuth ? ['auth'] : []), ...f.requested].join(' ');
  return layout(
    `Cho phép ${f.miniAppName}`,
    `<h1>${escapeHtml(f.miniAppName)} muốn truy cập thông tin của bạn</h1>
<p>Đăng nhập với tư cách <strong>${escapeHtml(f.userName)}</strong> (<code>${escapeHtml(f.userId)}</code>).</p>
<form method="post" action="consent">
${hidden('csrf', f.csrf)}
${hidden('user_id', f.userId)}
${hidden('miniapp_id', f.miniAppId)}
${hidden('scope', scope)}
${f.redirectUri === null ? '' : hidden('redirect_uri', f.redirectUri)}
${f.state === null ? '' : hidden('state', f.state)}
<fieldset>
<legend>Chọn thông tin chia sẻ với <code>${escapeHtml(f.miniAppId)}</code></legend>
${boxes}
</fieldset>
<p><button type="submit" name="decision" value="allow" id="allow">Cho phép</button>
<button type="submit" name="decision" value="deny" id="deny">Từ chối</button></p>
</form>`,
  );
}

export function codePage(code: IssuedAuthCode, miniAppName: string): string {
  return layout(
    'Mã xác thực',
    `<h1>Mã xác thực cho ${escapeHtml(miniAppName)}</h1>
<p>Gửi mã này tới backend của mini-app; backend đổi nó tại <code>POST /oauth2/token/exchange</code>.</p>
<output id="auth-code">${escapeHtml(code.code)}</output>
<p>Phạm vi: <span id="scopes">${escapeHtml(code.scopes.join(' '))}</span><br>
Hết hạn lúc <time id="expires-at" datetime="${escapeHtml(code.expiresAt)}">${escapeHtml(code.expiresAt)}</time> (${code.expiresIn} giây, dùng một lần).</p>`,
  );
}

export function deniedPage(miniAppName: string): string {
  return layout(
    'Đã từ chối',
    `<h1 id="denied">Bạn đã từ chối ${escapeHtml(miniAppName)}</h1><p>Không có mã nào được cấp.</p>`,
  );
}

export function errorPage(status: number, code: string, message: string): string {
  return layout(
    'Lỗi',
    `<h1>Không thể hiển thị trang đồng ý</h1><p id="error" data-code="${escapeHtml(code)}">${status}: ${escapeHtml(message)}</p>`,
  );
}
