// Unit tests of the console's pure logic (query strings, formatting, routes): no DOM needed.
module.exports = {
  displayName: 'console',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
