// ESLint over the browser client (asobiba/web, and each game's renderer in its own folder:
// asobiba/games/<id>/web/, tests/<plug-in>/web/): plain ES modules, no build step.
import js from "@eslint/js";
import globals from "globals";
import uiStrings from "./lint/ui-strings.mjs";

// the one i18n table (issue 17 item 8): words only in js/i18n.js (lint/ui-strings.mjs)
const asobiba = { rules: { "ui-strings": uiStrings } };

export default [
  js.configs.recommended,
  {
    files: ["asobiba/web/**/*.js", "asobiba/games/*/web/*.js", "tests/*/web/*.js"],
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
  {
    // every script but the table itself: the renderers and the pages' scripts
    files: ["asobiba/web/**/*.js", "asobiba/games/*/web/*.js", "tests/*/web/*.js"],
    ignores: ["asobiba/web/js/i18n.js"],
    plugins: { asobiba },
    rules: { "asobiba/ui-strings": "error" },
  },
];
