/**
 * The identity demo for `npm start` (docs/identity.md, "Demo data"): a demo mini-app with its client secret and
 * three users with Vietnamese profiles and different consents, so the login flow can be tried at once. Idempotent
 * across restarts: what exists is kept, a missing consent is recorded again, and the mini-app's secret (shown once)
 * is kept under `identity` in `<dataDir>/demo-credentials.json`; a lost or stale one is rotated.
 */
import type {
  ConsentScope,
  IdentityServices,
  MiniAppRegistry,
  UserDirectory,
  UserProfile,
} from '../../application/identity/index.js';
import { keepDemoCredentials, readDemoCredentials } from '../shared/demo-credentials.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import type { DemoSeed } from '../shared/demo-seed.js';
import type { IdentityConfig } from './config.js';

export interface IdentityDemoData {
  miniAppId: string;
  clientSecret: string;
  users: { userId: string; name: string; consented: ConsentScope[] }[];
}

const asSeed = () => newCommandContext({ actor: { operator: 'demo-seed' } });

export const demoMiniApp = {
  miniAppId: 'demo-miniapp',
  name: 'Mini-app Demo – Đặt xe & Ưu đãi',
  redirectUris: ['https://miniapp.example.vn/login/callback'],
};

const demoUsers: { userId: string; profile: UserProfile; consented: ConsentScope[] }[] = [
  {
    userId: 'demo-user-1',
    profile: {
      name: 'Nguyễn Văn An',
      dateOfBirth: '1990-04-12',
      gender: 'MALE',
      phoneNumber: '0901234567',
      email: 'an.nguyen@example.vn',
      avatarUrl: 'https://cdn.example.vn/demo/avatars/an.png',
    },
    consented: ['profile', 'phone', 'email'],
  },
  {
    userId: 'demo-user-2',
    profile: {
      name: 'Trần Thị Bình',
      dateOfBirth: '1995-09-30',
      gender: 'FEMALE',
      phoneNumber: '0912345678',
      email: 'binh.tran@example.vn',
      avatarUrl: 'https://cdn.example.vn/demo/avatars/binh.png',
    },
    consented: ['profile'],
  },
  {
    userId: 'demo-user-3',
    profile: {
      name: 'Lê Minh Châu',
      dateOfBirth: '2001-01-01',
      gender: 'OTHER',
      phoneNumber: '0987654321',
      email: 'chau.le@example.vn',
      avatarUrl: null,
    },
    consented: [],
  },
];

export async function seedIdentityDemo(
  services: { users: UserDirectory; miniApps: MiniAppRegistry },
  dataDir: string,
): Promise<IdentityDemoData> {
  const saved = readDemoCredentials(dataDir).identity as IdentityDemoData | undefined;

  let clientSecret = saved?.clientSecret;
  const miniApp = await services.miniApps.state(demoMiniApp.miniAppId);
  if (miniApp.status === 'NONE') {
    clientSecret = (await services.miniApps.register(asSeed(), demoMiniApp)).clientSecret!;
  } else if (!clientSecret || !(await services.miniApps.authenticate(demoMiniApp.miniAppId, clientSecret))) {
    clientSecret = (await services.miniApps.rotateSecret(asSeed(), demoMiniApp.miniAppId)).clientSecret!;
  }

  for (const user of demoUsers) {
    if (!(await services.users.find(user.userId))) await services.users.register(asSeed(), user.userId, user.profile);
    if (user.consented.length)
      await services.users.recordConsent(asSeed(), user.userId, demoMiniApp.miniAppId, {
        granted: user.consented,
        withdrawn: [],
      });
  }

  const data: IdentityDemoData = {
    miniAppId: demoMiniApp.miniAppId,
    clientSecret,
    users: demoUsers.map((u) => ({ userId: u.userId, name: u.profile.name, consented: u.consented })),
  };
  if (JSON.stringify(saved) !== JSON.stringify(data)) keepDemoCredentials(dataDir, { identity: data });
  return data;
}

/** The identity context's module seed (context-module.ts, `demo`): the mini-app and users above, and the banner's lines. */
export const identityDemo: DemoSeed<Pick<IdentityServices, 'users' | 'miniApps'>, IdentityConfig> = async (
  services,
  demo,
) => {
  const identity = await seedIdentityDemo(services, demo.config.DATA_DIR);
  return {
    lines: [
      `Identity demo (docs/identity.md; README, "Login flow"):`,
      `  mini-app:             ${identity.miniAppId}  client secret ${identity.clientSecret}`,
      `  users:                ${identity.users.map((u) => `${u.userId} (consented: ${u.consented.join(' ') || 'nothing'})`).join(', ')}`,
      `  consent page:         ${demo.shownAt}/sandbox/identity/consent?miniapp_id=${identity.miniAppId}&user_id=demo-user-3&scope=profile%20phone%20email`,
    ],
  };
};
