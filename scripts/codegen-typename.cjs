// For codegen.yml: the web app's documents get `__typename` on every selection, as Apollo
// Client's cache asks for, so the text the server trusts is the text the app runs.
const { addTypenameSelectionDocumentTransform } = require('@graphql-codegen/client-preset');
module.exports = { transform: addTypenameSelectionDocumentTransform.transform };
