// ESLint (flat config) over the browser apps (static/agent, static/kiosk, static/common, the panel's
// live link) and their Node unit tests (tests/js). Types are checked by the TypeScript compiler
// (jsconfig.json).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["**/node_modules/**", "static/vendor/**", "static/panel/**/*", "!static/panel/live-link.js", "tests/realtime_js/**", "tests/video_js/**", ".venv/**", "var/**"],
  },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["static/kiosk/config.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
  {
    files: ["static/**/*.js", "tests/js/**/*.js"],
    rules: {
      // An error is shown in words or logged with a reason, never dropped (docs/decisions/browser-apps.md).
      "no-empty": ["error", { allowEmptyCatch: false }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-restricted-syntax": [
        "error",
        { selector: "CatchClause > BlockStatement[body.length=0]", message: "Say why the error does not matter, or show it: log it with a reason (reportError)." },
        { selector: "CallExpression[callee.property.name='catch'] > ArrowFunctionExpression > BlockStatement[body.length=0]", message: "A dropped rejection: show it in words or log it with a reason." },
      ],
    },
  },
];
