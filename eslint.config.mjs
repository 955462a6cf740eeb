// ESLint over the browser client (asobiba/web): plain ES modules, no build step.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["asobiba/web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none" }],
      "no-implied-eval": "error",
      "no-eval": "error",
      eqeqeq: ["error", "smart"],
    },
  },
];
