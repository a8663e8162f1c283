// Vite's `?raw` imports (a file's text), used to check the verifier's source.
declare module "*?raw" {
  const text: string;
  export default text;
}
