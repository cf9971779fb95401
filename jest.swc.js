// Our TypeScript is compiled by SWC (decorators and their metadata on, as tsc emits them); it is much
// faster than ts-jest, and type-checking is `npm run typecheck`'s job. Nest 12's packages are ES
// modules: Jest loads them untransformed through require(esm), which needs Node 24.9+ and
// --experimental-vm-modules (see the test scripts in package.json).
module.exports = {
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2023',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  testEnvironment: 'node',
};
