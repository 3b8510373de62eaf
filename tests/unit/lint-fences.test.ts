import { expect } from 'chai';
import { ESLint } from 'eslint';

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
  ];
  for (const [file, from, expected] of cases)
    it(`${expected ? 'refuses' : 'allows'} ${from} in ${file}`, async () => {
      expect(await refused(file, from)).to.equal(expected);
    });
});
