/**
 * A payment hub merchant (stream paymentMerchant-<merchantCode>): the mini-app's IPN settings, its terminals with
 * their paymentApiKeys and payment methods, and its secretKeys. docs/payments.md, "Onboarding". Keys and secrets
 * arrive generated, hashed or encrypted by the application: the domain never sees a raw credential.
 */
import type { Decider } from '../shared/decider.js';
import { paymentsError } from './errors.js';
import type { PaymentMerchantEvent } from './events.js';
import { assertMethodConsistent, type PaymentMethodConfig } from './payment-methods.js';

export interface NewPaymentApiKey {
  apiKeyId: string;
  prefix: string;
  keyDigest: string;
  expiresAt: string | null;
}

export interface NewSecretKey {
  secretId: string;
  encryptedSecret: string;
}

export interface PaymentApiKeyRecord {
  apiKeyId: string;
  prefix: string;
  keyDigest: string;
  status: 'ACTIVE' | 'REVOKED';
  expiresAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
}

export interface ConfiguredMethod extends PaymentMethodConfig {
  paymentMethodId: string;
  configuredBy: string;
  configuredAt: string;
}

export interface Terminal {
  terminalId: string;
  name: string;
  addedBy: string;
  addedAt: string;
  apiKeys: PaymentApiKeyRecord[];
  methods: ConfiguredMethod[];
}

export interface MerchantSecretRecord {
  secretId: string;
  encryptedSecret: string;
  issuedAt: string;
  /** null: the current secret; else the end of its overlap window after a rotation. */
  validUntil: string | null;
}

export interface PaymentMerchant {
  status: 'ACTIVE';
  merchantCode: string;
  name: string;
  ipnUrl: string;
  maxIpnRetries: number;
  onboardedBy: string;
  onboardedAt: string;
  updatedAt: string;
  secrets: MerchantSecretRecord[];
  terminals: Terminal[];
}

export type PaymentMerchantState = { readonly status: 'NONE' } | PaymentMerchant;

/** Forms were checked by the interface; `by` is the operator who acts (audit), `now` ISO 8601 in UTC. */
export type PaymentMerchantCommand =
  | {
      type: 'OnboardMerchant';
      merchantCode: string;
      name: string;
      ipnUrl: string;
      maxIpnRetries: number;
      secret: NewSecretKey;
      by: string;
      now: string;
    }
  | { type: 'ChangeIpnSettings'; ipnUrl?: string; maxIpnRetries?: number; by: string; now: string }
  | { type: 'AddTerminal'; terminalId: string; name: string; by: string; now: string }
  | { type: 'IssuePaymentApiKey'; terminalId: string; apiKey: NewPaymentApiKey; by: string; now: string }
  | { type: 'RevokePaymentApiKey'; terminalId: string; apiKeyId: string; by: string; now: string }
  | { type: 'RotateSecretKey'; secret: NewSecretKey; overlapSeconds: number; by: string; now: string }
  | {
      type: 'ConfigurePaymentMethod';
      terminalId: string;
      paymentMethodId: string;
      method: PaymentMethodConfig;
      by: string;
      now: string;
    };

const invalid = (field: string, message: string) => paymentsError('INVALID_PAYMENT_SETUP', message, { field });

function existing(state: PaymentMerchantState): PaymentMerchant {
  if (state.status === 'NONE') throw paymentsError('PAYMENT_MERCHANT_NOT_FOUND', 'no such payment merchant');
  return state;
}

function terminalOf(merchant: PaymentMerchant, terminalId: string): Terminal {
  const terminal = merchant.terminals.find((t) => t.terminalId === terminalId);
  if (!terminal)
    throw paymentsError('TERMINAL_NOT_FOUND', `merchant ${merchant.merchantCode} has no terminal ${terminalId}`, {
      terminalId,
    });
  return terminal;
}

function decide(command: PaymentMerchantCommand, state: PaymentMerchantState): PaymentMerchantEvent[] {
  switch (command.type) {
    case 'OnboardMerchant': {
      if (state.status !== 'NONE')
        throw paymentsError('PAYMENT_MERCHANT_EXISTS', `merchant ${command.merchantCode} already exists`, {
          merchantCode: command.merchantCode,
        });
      const { merchantCode, name, ipnUrl, maxIpnRetries, by, now } = command;
      return [
        {
          type: 'PaymentMerchantOnboarded',
          data: { merchantCode, name, ipnUrl, maxIpnRetries, onboardedBy: by, onboardedAt: now },
        },
        {
          type: 'MerchantSecretKeyIssued',
          data: {
            merchantCode,
            ...command.secret,
            previousSecretId: null,
            previousValidUntil: null,
            issuedBy: by,
            issuedAt: now,
          },
        },
      ];
    }
    case 'ChangeIpnSettings': {
      const m = existing(state);
      const ipnUrl = command.ipnUrl ?? m.ipnUrl;
      const maxIpnRetries = command.maxIpnRetries ?? m.maxIpnRetries;
      if (ipnUrl === m.ipnUrl && maxIpnRetries === m.maxIpnRetries) return [];
      return [
        {
          type: 'PaymentMerchantIpnChanged',
          data: { merchantCode: m.merchantCode, ipnUrl, maxIpnRetries, changedBy: command.by, changedAt: command.now },
        },
      ];
    }
    case 'AddTerminal': {
      const m = existing(state);
      if (m.terminals.some((t) => t.terminalId === command.terminalId))
        throw paymentsError('TERMINAL_EXISTS', `terminal ${command.terminalId} already exists`, {
          terminalId: command.terminalId,
        });
      return [
        {
          type: 'TerminalAdded',
          data: {
            merchantCode: m.merchantCode,
            terminalId: command.terminalId,
            name: command.name,
            addedBy: command.by,
            addedAt: command.now,
          },
        },
      ];
    }
    case 'IssuePaymentApiKey': {
      const m = existing(state);
      terminalOf(m, command.terminalId);
      const { expiresAt } = command.apiKey;
      if (expiresAt !== null && Date.parse(expiresAt) <= Date.parse(command.now))
        throw invalid('expiresAt', 'expiresAt must be in the future');
      return [
        {
          type: 'PaymentApiKeyIssued',
          data: {
            merchantCode: m.merchantCode,
            terminalId: command.terminalId,
            ...command.apiKey,
            issuedBy: command.by,
            issuedAt: command.now,
          },
        },
      ];
    }
    case 'RevokePaymentApiKey': {
      const m = existing(state);
      const key = terminalOf(m, command.terminalId).apiKeys.find((k) => k.apiKeyId === command.apiKeyId);
      if (!key)
        throw paymentsError(
          'PAYMENT_API_KEY_NOT_FOUND',
          `terminal ${command.terminalId} has no key ${command.apiKeyId}`,
          {
            apiKeyId: command.apiKeyId,
          },
        );
      // Revoking twice changes nothing, so a retried revocation succeeds.
      if (key.status === 'REVOKED') return [];
      return [
        {
          type: 'PaymentApiKeyRevoked',
          data: {
            merchantCode: m.merchantCode,
            terminalId: command.terminalId,
            apiKeyId: key.apiKeyId,
            keyDigest: key.keyDigest,
            revokedBy: command.by,
            revokedAt: command.now,
          },
        },
      ];
    }
    case 'RotateSecretKey': {
      const m = existing(state);
      const current = m.secrets.find((s) => s.validUntil === null)!;
      return [
        {
          type: 'MerchantSecretKeyIssued',
          data: {
            merchantCode: m.merchantCode,
            ...command.secret,
            previousSecretId: current.secretId,
            previousValidUntil: new Date(Date.parse(command.now) + command.overlapSeconds * 1000).toISOString(),
            issuedBy: command.by,
            issuedAt: command.now,
          },
        },
      ];
    }
    case 'ConfigurePaymentMethod': {
      const m = existing(state);
      terminalOf(m, command.terminalId);
      assertMethodConsistent(command.method);
      return [
        {
          type: 'PaymentMethodConfigured',
          data: {
            merchantCode: m.merchantCode,
            terminalId: command.terminalId,
            paymentMethodId: command.paymentMethodId,
            method: command.method,
            configuredBy: command.by,
            configuredAt: command.now,
          },
        },
      ];
    }
  }
}

function onTerminal(m: PaymentMerchant, terminalId: string, change: (t: Terminal) => Terminal): PaymentMerchant {
  return { ...m, terminals: m.terminals.map((t) => (t.terminalId === terminalId ? change(t) : t)) };
}

function evolve(state: PaymentMerchantState, event: PaymentMerchantEvent): PaymentMerchantState {
  if (event.type === 'PaymentMerchantOnboarded') {
    const d = event.data;
    return {
      status: 'ACTIVE',
      merchantCode: d.merchantCode,
      name: d.name,
      ipnUrl: d.ipnUrl,
      maxIpnRetries: d.maxIpnRetries,
      onboardedBy: d.onboardedBy,
      onboardedAt: d.onboardedAt,
      updatedAt: d.onboardedAt,
      secrets: [],
      terminals: [],
    };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'PaymentMerchantIpnChanged':
      return {
        ...state,
        ipnUrl: event.data.ipnUrl,
        maxIpnRetries: event.data.maxIpnRetries,
        updatedAt: event.data.changedAt,
      };
    case 'MerchantSecretKeyIssued': {
      const d = event.data;
      const secrets = state.secrets.map((s) =>
        s.secretId === d.previousSecretId ? { ...s, validUntil: d.previousValidUntil } : s,
      );
      return {
        ...state,
        updatedAt: d.issuedAt,
        secrets: [
          ...secrets,
          { secretId: d.secretId, encryptedSecret: d.encryptedSecret, issuedAt: d.issuedAt, validUntil: null },
        ],
      };
    }
    case 'TerminalAdded': {
      const d = event.data;
      const terminal: Terminal = {
        terminalId: d.terminalId,
        name: d.name,
        addedBy: d.addedBy,
        addedAt: d.addedAt,
        apiKeys: [],
        methods: [],
      };
      return { ...state, updatedAt: d.addedAt, terminals: [...state.terminals, terminal] };
    }
    case 'PaymentApiKeyIssued': {
      const d = event.data;
      const key: PaymentApiKeyRecord = {
        apiKeyId: d.apiKeyId,
        prefix: d.prefix,
        keyDigest: d.keyDigest,
        status: 'ACTIVE',
        expiresAt: d.expiresAt,
        createdBy: d.issuedBy,
        createdAt: d.issuedAt,
        updatedBy: d.issuedBy,
        updatedAt: d.issuedAt,
      };
      return onTerminal({ ...state, updatedAt: d.issuedAt }, d.terminalId, (t) => ({
        ...t,
        apiKeys: [...t.apiKeys, key],
      }));
    }
    case 'PaymentApiKeyRevoked': {
      const d = event.data;
      return onTerminal({ ...state, updatedAt: d.revokedAt }, d.terminalId, (t) => ({
        ...t,
        apiKeys: t.apiKeys.map((k) =>
          k.apiKeyId === d.apiKeyId ? { ...k, status: 'REVOKED', updatedBy: d.revokedBy, updatedAt: d.revokedAt } : k,
        ),
      }));
    }
    case 'PaymentMethodConfigured': {
      const d = event.data;
      const method: ConfiguredMethod = {
        ...d.method,
        paymentMethodId: d.paymentMethodId,
        configuredBy: d.configuredBy,
        configuredAt: d.configuredAt,
      };
      return onTerminal({ ...state, updatedAt: d.configuredAt }, d.terminalId, (t) => ({
        ...t,
        methods: [...t.methods.filter((x) => x.code !== method.code), method],
      }));
    }
  }
}

export const paymentMerchantDecider: Decider<PaymentMerchantCommand, PaymentMerchantState, PaymentMerchantEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/** The secrets a signature may be made with at `now`: the current one and those still in their overlap window. */
export function usableSecrets(merchant: PaymentMerchant, now: string): MerchantSecretRecord[] {
  return merchant.secrets.filter((s) => s.validUntil === null || Date.parse(now) < Date.parse(s.validUntil));
}
