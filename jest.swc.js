// SWC instead of ts-jest: Nest 12 ships ES modules only, which ts-jest cannot load on Node 20.
// The transformed ESM packages are compiled to CommonJS along with our code.
module.exports = {
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|@standard-schema|strtok3|token-types|@tokenizer|uint8array-extras)/)',
  ],
  testEnvironment: 'node',
};
