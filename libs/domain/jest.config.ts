export default {
  displayName: 'domain',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
