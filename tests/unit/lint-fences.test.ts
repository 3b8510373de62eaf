import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import ts from 'typescript';

/** The layer fences of eslint.config.js (docs/conventions.md, "Modules"), each tried on a file that crosses it. */
describe('layer fences (eslint no-restricted-imports)', function () {
  this.timeout(60_000);
  const eslint = new ESLint();
  const refused = async (filePath: string, from: string): Promise<boolean> => {
    const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const y = x;\n`, { filePath });
    return result!.messages.some((m) => m.ruleId === 'no-restricted-imports');
  };

  const cases: [string, string, boolean][] = [
    ['api/shop/x.ts', '../../infrastructure/shared/logger.js', true],
    ['api/shop/x.ts', '../../domain/shop/index.js', true],
    ['api/shop/x.ts', '../../application/shop/catalog-queries.js', true],
    ['api/shop/x.ts', '../../application/shop/index.js', false],
    ['api/shared/x.ts', '../../application/shared/logger.js', false],
    ['api/shared/x.ts', '../../application/shop/index.js', true],
    ['projections/shop/x.ts', '../../application/shared/clock.js', true],
    ['projections/shop/x.ts', '../../domain/shop/events.js', true],
    ['projections/shop/x.ts', '../../domain/shop/index.js', false],
    ['infrastructure/shared/x.ts', '../../domain/shop/index.js', true],
    ['infrastructure/shared/x.ts', '../../projections/shared/projector.js', false],
    ['infrastructure/shop/x.ts', '../../api/shop/index.js', true],
    ['application/shop/x.ts', '../../infrastructure/shared/logger.js', true],
    ['application/shop/x.ts', '../../domain/shop/index.js', false],
    ['domain/checkout/x.ts', '../../application/shared/clock.js', true],
    // A shared folder imports no context, of its own layer either, from any depth below it.
    ['infrastructure/shared/x.ts', '../payments/index.js', true],
    ['infrastructure/shared/x.ts', '../payments/metrics.js', true],
    ['infrastructure/shared/messaging/x.ts', '../../payments/index.js', true],
    ['infrastructure/shared/messaging/x.ts', '../eventstore/in-memory-event-store.js', false],
    ['infrastructure/shared/messaging/x.ts', '../../shared/context.js', false],
    ['application/shared/x.ts', '../checkout/index.js', true],
    ['domain/shared/x.ts', '../shop/events.js', true],
    ['projections/shared/x.ts', '../orders/index.js', true],
    ['api/shared/x.ts', '../identity/index.js', true],
    ['api/shared/x.ts', './route.js', false],
  ];
  for (const [file, from, expected] of cases)
    it(`${expected ? 'refuses' : 'allows'} ${from} in ${file}`, async () => {
      expect(await refused(file, from)).to.equal(expected);
    });
});

/**
 * A `shared` folder names no context (docs/conventions.md, "Layers and fences"): no file under domain/shared,
 * application/shared, infrastructure/shared, projections/shared or api/shared imports a path with a context's name in
 * it (a folder, or a word of a file's name: `../payments/`, `ipn-metrics.js` does not name one, `gateway.js` does).
 * Wider than eslint's fence, which sees only folders: a context's piece left in a shared folder shows here too.
 */
describe('shared folders name no context (the imports of every file under */shared/)', () => {
  const layers = ['domain', 'application', 'infrastructure', 'projections', 'api'];
  const root = path.resolve(import.meta.dirname, '../..');
  /** The contexts: every folder of a layer but `shared`. */
  const contextNames = new Set(
    layers.flatMap((layer) =>
      fs
        .readdirSync(path.join(root, layer), { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name !== 'shared')
        .map((e) => e.name),
    ),
  );
  const filesUnder = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      .filter((f) => f.endsWith('.ts'));
  const sharedFiles = layers.flatMap((layer) => filesUnder(path.join(root, layer, 'shared')));

  /**
   * The named exceptions: imports that name a context and stay, each with why. The gateway's vocabulary is shared by
   * design (docs/gateway.md): every interface declares the gateway front it stands behind and answers the gateway's
   * refusals in its own envelope, and the gateway context checks them, without either importing the other.
   */
  const exceptions: Record<string, readonly string[]> = {
    // The interfaces the gateway stands in front of, named alike by the gateway's domain and every interface.
    'application/shared/gateway.ts': ['../../domain/shared/gateway-interfaces.js'],
    // Every interface's front (MountedRouter.gateway) and the refusals it maps.
    'api/shared/context-api.ts': ['./gateway-front.js'],
    'api/shared/gateway-front.ts': ['../../application/shared/gateway.js'],
  };

  /** The words of a path: its folders and the parts of its file name (`../../domain/shared/gateway-interfaces.js`). */
  const words = (specifier: string) => specifier.split(/[/._-]+/).filter(Boolean);
  const namesAContext = (specifier: string) => words(specifier).some((w) => contextNames.has(w));

  it('knows the contexts (every layer folder but shared) and finds the shared files', () => {
    expect([...contextNames]).to.include.members(['shop', 'checkout', 'payments', 'orders', 'identity', 'files']);
    expect(contextNames).to.include('gateway');
    expect(sharedFiles.length).to.be.greaterThan(100);
  });

  it("finds what it looks for: a sibling context, another layer's, a file named for a context", () => {
    expect(namesAContext('../payments/metrics.js')).to.equal(true);
    expect(namesAContext('../../domain/shop/index.js')).to.equal(true);
    expect(namesAContext('./orders-read-model.js')).to.equal(true);
    expect(namesAContext('./kept-json-file.js')).to.equal(false);
    expect(namesAContext('../../application/shared/clock.js')).to.equal(false);
  });

  it('no shared file imports a path naming a context, but for the named exceptions', () => {
    const found: string[] = [];
    const used = new Set<string>();
    for (const file of sharedFiles) {
      const relative = path.relative(root, file).split(path.sep).join('/');
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        if (!namesAContext(specifier)) continue;
        if (exceptions[relative]?.includes(specifier)) used.add(`${relative} → ${specifier}`);
        else found.push(`${relative} → ${specifier}`);
      }
    }
    expect(found, 'shared files importing a context').to.deep.equal([]);
    // An exception no longer needed is removed from the list, so that the list stays the truth.
    const listed = Object.entries(exceptions).flatMap(([file, specifiers]) => specifiers.map((s) => `${file} → ${s}`));
    expect([...used].sort()).to.deep.equal(listed.sort());
  });

  it('the shared folders nest no deeper than eslint.config.js fences them (sharedDepths)', () => {
    const deepest = Math.max(...sharedFiles.map((f) => path.relative(root, f).split(path.sep).length - 3));
    expect(deepest).to.be.at.most(2);
  });
});
