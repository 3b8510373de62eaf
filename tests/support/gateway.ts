/** The gateway credentials every test app accepts: startTestApp and the fast app register them for every interface. */
export const testGatewayClient = { clientId: 'test-client', clientSecret: 'test-client-secret-0123456789' };

/** The gateway's headers for a test request. */
export const gatewayHeaders = (): Record<string, string> => ({
  client_id: testGatewayClient.clientId,
  client_secret: testGatewayClient.clientSecret,
});
