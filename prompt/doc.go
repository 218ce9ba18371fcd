// Package prompt builds the prompt docent sends to a language model: the
// system message with the core glossary, the retrieved chunks as <doc>
// blocks, the session and customer app state, the recent conversation and
// the question, each within its own token budget. The package is pure: it
// never reads files, talks to a model or writes to a terminal.
//
// The user message reads, in order: the <doc> blocks (highest score
// first), the <session> and <app_state> sections, the <widgets> section,
// then "Question: ..." last. Every part that comes from outside (documents,
// state, session, messages, the question) has its control characters
// stripped and any <doc>, <core_concepts>, <session>, <app_state> or
// <widgets> tag in it neutralized, so no data can pose as prompt structure.
package prompt
