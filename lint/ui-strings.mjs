// ESLint rule "asobiba/ui-strings": the browser client's words live in ONE table
// (asobiba/web/js/i18n.js, one dictionary per language; a game's own words as "<game>.<key>").
// Elsewhere a string literal may not carry Japanese text at all, nor English words where they
// reach the screen: text children of el()/svg(), visible attributes (aria-label, title,
// placeholder, alt), textContent/title assignments, setAttribute of those attributes, DOM
// text appends, and strings a function returns (moveLabel, seatName, score rows...).
// Symbols (● ★ ≠ ↻ ▲ ×, digits, punctuation) and keys passed to t() are not words.

const JAPANESE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/;
const WORD = /[A-Za-z]{2,}/;
const VISIBLE_ATTRS = new Set(["aria-label", "aria-description", "aria-roledescription", "aria-valuetext", "title", "placeholder", "alt", "text"]);
const VISIBLE_PROPS = new Set(["textContent", "innerText", "innerHTML", "title", "placeholder", "alt", "ariaLabel"]);
const DOM_TEXT = new Set(["append", "prepend", "replaceChildren", "after", "before", "createTextNode", "replaceWith"]);

/** The string pieces an expression can put on screen as they stand (not through a call). */
function pieces(node, out = []) {
  if (!node) return out;
  switch (node.type) {
    case "Literal":
      if (typeof node.value === "string") out.push([node, node.value]);
      break;
    case "TemplateLiteral":
      for (const q of node.quasis) out.push([q, q.value.cooked || ""]);
      break;
    case "ConditionalExpression":
      pieces(node.consequent, out);
      pieces(node.alternate, out);
      break;
    case "LogicalExpression":
      pieces(node.left, out);
      pieces(node.right, out);
      break;
    case "BinaryExpression":
      if (node.operator === "+") {
        pieces(node.left, out);
        pieces(node.right, out);
      }
      break;
    case "ArrayExpression":
      for (const e of node.elements) pieces(e, out);
      break;
    default:
      break;
  }
  return out;
}

function name(node) {
  if (!node) return null;
  if (node.type === "Identifier") return node.name;
  if (node.type === "Literal") return String(node.value);
  return null;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "user-visible words belong in the one i18n table (js/i18n.js)" },
    // {english: false}: only the Japanese check
    schema: [{ type: "object", properties: { english: { type: "boolean" } }, additionalProperties: false }],
    messages: {
      japanese: "Japanese text outside the i18n table: add a key to js/i18n.js and use t()/ctx.t().",
      english: "Visible English text \"{{text}}\" outside the i18n table: add a key to js/i18n.js and use t()/ctx.t().",
    },
  },
  create(context) {
    const english = !context.options[0] || context.options[0].english !== false;
    const visible = (expr) => {
      if (!english) return;
      for (const [node, text] of pieces(expr)) {
        if (WORD.test(text.replace(/\{\w+\}/g, ""))) context.report({ node, messageId: "english", data: { text: text.slice(0, 40) } });
      }
    };
    const japanese = (node, text) => {
      if (JAPANESE.test(text)) context.report({ node, messageId: "japanese" });
    };
    return {
      Literal(node) {
        if (typeof node.value === "string") japanese(node, node.value);
      },
      TemplateElement(node) {
        japanese(node, node.value.cooked || "");
      },
      CallExpression(node) {
        const callee = node.callee;
        const fn = callee.type === "Identifier" ? callee.name : callee.type === "MemberExpression" ? name(callee.property) : null;
        if (callee.type === "Identifier" && (fn === "el" || fn === "svg")) node.arguments.slice(2).forEach(visible);
        else if (callee.type === "MemberExpression" && DOM_TEXT.has(fn)) node.arguments.forEach(visible);
        else if (fn === "setAttribute" && VISIBLE_ATTRS.has(name(node.arguments[0]))) visible(node.arguments[1]);
      },
      Property(node) {
        if (VISIBLE_ATTRS.has(name(node.key)) && node.parent.type === "ObjectExpression") visible(node.value);
      },
      AssignmentExpression(node) {
        if (node.left.type === "MemberExpression" && VISIBLE_PROPS.has(name(node.left.property))) visible(node.right);
      },
      ReturnStatement(node) {
        visible(node.argument);
      },
      ArrowFunctionExpression(node) {
        if (node.expression) visible(node.body);
      },
    };
  },
};
