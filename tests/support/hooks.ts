import { stopTestServer } from './postgres.js';

process.env.LOG_SILENT ??= 'true';

export const mochaHooks = {
  async afterAll() {
    await stopTestServer();
  },
};
