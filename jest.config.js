/** Unit specs: beside the code they test, no database server needed. */
module.exports = {
  ...require('./jest.swc.js'),
  rootDir: '.',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
};
