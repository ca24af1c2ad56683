import resolve from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';
import terser from '@rollup/plugin-terser';
export default {
  input: 'src/main.js',
  output: { file: 'dist/bundle.js', format: 'es', sourcemap: true, plugins: [terser()] },
  plugins: [resolve({ preferBuiltins: true }), commonjs()],
};
