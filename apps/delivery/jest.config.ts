export default {
  displayName: 'delivery',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
