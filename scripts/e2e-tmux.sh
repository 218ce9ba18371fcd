#!/usr/bin/env bash
# End-to-end test of the docent TUI: runs the real binary in a detached
# tmux session of a fixed size, types with send-keys and checks what
# capture-pane shows. On failure it says which check failed, prints the
# screen and exits non-zero. The tmux server it starts (on its own socket,
# so no user session is touched) is always killed.
#
# Three runs: the embedded demo knowledge base at 80×24 for the chat itself,
# then a generated folder of a few thousand files (two of them broken) for
# the start-up progress and the skipped-files list, then team notes saved
# and found again from the chat.
#
#   DOCENT_BIN   binary to run (default ./bin/docent)
#   DOCENT_ARGS  extra arguments for it (default none)
#   E2E_TIMEOUT  seconds to wait for each screen (default 10)
set -euo pipefail

BIN=${DOCENT_BIN:-./bin/docent}
ARGS=${DOCENT_ARGS:-}
TIMEOUT=${E2E_TIMEOUT:-10}
SOCKET="docent-e2e-$$"
RUNS=0
SESSION=e2e
TARGET="$SESSION:0.0"

die() { echo "e2e: $*" >&2; exit 2; }
command -v tmux >/dev/null || die "tmux is not installed (apt-get install tmux)"
[ -x "$BIN" ] || die "no executable at $BIN (build it, or set DOCENT_BIN)"

WORK=$(mktemp -d)
t() { tmux -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
	t kill-server >/dev/null 2>&1 || true
	rm -rf "$WORK" "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/docent-e2e-$$"*
}
trap cleanup EXIT

screen() { t capture-pane -p -t "$TARGET" 2>/dev/null || true; }

fail() {
	echo "e2e: FAIL: $*" >&2
	echo "----- screen ($(t display -p -t "$TARGET" '#{window_width}x#{window_height}' 2>/dev/null || echo '?')) -----" >&2
	screen >&2
	echo "-----" >&2
	exit 1
}

# holds CHECK...: whether every CHECK holds on screen S. A CHECK is "text"
# (must be on screen) or "!text" (must not be).
holds() {
	local check
	for check in "$@"; do
		if [[ $check == !* ]]; then
			grep -qF -- "${check#!}" <<<"$S" && return 1
		else
			grep -qF -- "$check" <<<"$S" || return 1
		fi
	done
	return 0
}

# wait_for DESCRIPTION CHECK...: polls the screen until every CHECK holds.
wait_for() {
	local what=$1
	shift
	local deadline=$((SECONDS + TIMEOUT))
	while :; do
		S=$(screen)
		holds "$@" && return 0
		[ $SECONDS -ge $deadline ] && fail "$what (waited ${TIMEOUT}s for: $*)"
		sleep 0.05
	done
}

# press_until DESCRIPTION KEY LIMIT CHECK...: presses KEY, one press per
# changed screen, until every CHECK holds.
press_until() {
	local what=$1 k=$2 limit=$3 i before deadline
	shift 3
	for ((i = 0; i <= limit; i++)); do
		S=$(screen)
		holds "$@" && return 0
		before=$S
		key "$k"
		deadline=$((SECONDS + TIMEOUT))
		while S=$(screen); [ "$S" = "$before" ]; do
			[ $SECONDS -ge $deadline ] && fail "$what: $k changed nothing"
			sleep 0.02
		done
	done
	fail "$what ($limit presses of $k did not reach: $*)"
}

# last_question is the newest "› " line of the transcript (the input,
# under the rule, does not count).
last_question() { screen | awk '/^─+$/ { exit } /^› / { q = $0 } END { print q }'; }

# idle: no turn in progress.
IDLE=("!Searching the docs" "!Answering…")

type_text() { t send-keys -t "$TARGET" -l -- "$1"; }
type_line() { type_text "$1"; t send-keys -t "$TARGET" Enter; }
key() { t send-keys -t "$TARGET" "$@"; }
pass() { echo "e2e: ok   $*"; }
# esc presses Escape and lets it stand alone: a key sent right after it
# would reach the program as Alt+key, as from any terminal.
esc() { key Escape; sleep 0.2; }

# start WIDTH HEIGHT ARGS...: runs docent in a fresh window. It runs under a
# shell that reports how it ended, so a clean quit can be checked.
start() {
	local width=$1 height=$2
	shift 2
	# A fresh server on a socket of its own: one being killed on the old
	# socket can take a new session down with it.
	t kill-server >/dev/null 2>&1 || true
	RUNS=$((RUNS + 1))
	SOCKET="docent-e2e-$$-$RUNS"
	t new-session -d -s "$SESSION" -x "$width" -y "$height" \
		"TERM=xterm-256color $(printf '%q ' "$BIN" "$@") $ARGS; echo \"docent exited with status \$?\"; sleep 60"
	t set-option -t "$SESSION" -g window-size manual >/dev/null 2>&1 || true
}

### The chat on the demo knowledge base, at 80×24.

start_ns=$(date +%s%N)
start 80 24 --log "$WORK/docent.log"
wait_for "first frame (status bar)" "? keys"
echo "e2e: first frame after $((($(date +%s%N) - start_ns) / 1000000)) ms (includes tmux start and polling)"
wait_for "ready" "docs ·" "chunks" "? keys" "e.g. “tell me about "
echo "e2e: ready after $((($(date +%s%N) - start_ns) / 1000000)) ms"
pass "start-up: status bar shows the knowledge base, the hint a question from its titles"

type_line "what is quick links"
wait_for "the question is echoed and answered" "› what is quick links" "Quick Links" "${IDLE[@]}"
pass "ask: question and answer shown"

type_text "first line"
key M-Enter
type_text "second line"
key M-Enter
type_text "third line"
wait_for "a three-line input shows its three lines" "› first line" "› second line" "› third line"
key C-u C-u C-u C-u C-u
wait_for "the input is cleared" "› Ask about the docs…"
pass "a three-line input shows every line"

type_text "abc"
key Home
type_text "X"
key End
type_text "Y"
key C-a
type_text "1"
key C-e
type_text "2"
wait_for "Home/End/Ctrl+A/Ctrl+E edit the input" "› 1XabcY2" "!Evidence ·"
key C-u
wait_for "the input is cleared" "› Ask about the docs…"
pass "Home, End, Ctrl+A, Ctrl+E edit the input"

type_line "   "
wait_for "blank input is ignored" "› Ask about the docs…" "!›    "
pass "blank input is ignored"

type_line "what is quick links"
type_line "workspace"
wait_for "a question sent while answering is queued" "⧗ queued: workspace"
wait_for "the queued question goes out after the answer" "› workspace" "Pick:" "!⧗ queued" "${IDLE[@]}"
pass "a question sent while answering is queued, then sent"

key Right
wait_for "→ highlights the second pill" "▸[2 " " [1 "
key Enter
wait_for "Enter picks the second pill and its answer appears" "› → " "!Pick:" "${IDLE[@]}"
pass "workspace → pills → → Enter picks the second"

type_line "workspace"
wait_for "pills again" "Pick:" "${IDLE[@]}"
esc
wait_for "Esc dismisses the pills and marks them" "!Pick:" "(dismissed)"
pass "Esc dismisses the pills, leaving (dismissed)"

STATE="$WORK/state.json"
printf '{"page": "billing", "widgets": [{"name": "Recent", "state": "collapsed"}]}' >"$STATE"
type_line "/context $STATE"
wait_for "/context loads the app state" "Context loaded from" "page: billing" "context state.json │"
type_line "/context off"
wait_for "/context off detaches it" "detached." "!context state.json │"
pass "/context FILE attaches the app state (marked in the status bar), /context off detaches it"

type_line "workspace"
wait_for "pills again" "Pick:" "${IDLE[@]}"
key 2
deadline=$((SECONDS + TIMEOUT))
until [[ $(last_question) == "› → "* ]] && ! screen | grep -qF "Pick:"; do
	[ $SECONDS -ge $deadline ] && fail "2 picks the second pill"
	sleep 0.05
done
wait_for "the picked doc is answered" "${IDLE[@]}"
pass "2 picks the second pill"

# An expanded chunk taller than the pane scrolls inside it.
# The docs answer it plainly (the Create section), so no pills.
type_line "how do I create a workspace"
wait_for "the question is answered" "› how do I create a workspace" "— actions/workspaces.md" "${IDLE[@]}"
key F2
wait_for "F2 opens the evidence pane" "Evidence · " " by rank" "rank "
key Tab
key Enter
wait_for "Tab, Enter expand the first chunk" "▸ Evidence" "── actions/workspaces#chunk-3 ──"
press_until "↓ scrolls through the expanded chunk" Down 60 "archive it instead."
wait_for "still on the first item" "!▸ 2 " "!── actions/workspaces#chunk-3 ──"
key Down
wait_for "at the chunk's end ↓ selects the next item" "▸ 2 "
pass "an expanded chunk scrolls inside the evidence pane at 80×24"

# The evidence an answer is written from is the user's to choose.
key Space
wait_for "Space leaves the selected chunk out" "left out"
key r
wait_for "r answers again from the chunks kept" "↻ how do I create a workspace · from " "${IDLE[@]}"
pass "Space leaves a chunk out and r writes the answer again from the rest"

# Both panes at 80×24, each usable.
esc
esc
type_line "what is quick links"
# The sources under the answer come with its end: the busy markers alone
# can be missed when the screen is read before the first of them shows,
# and the debug pane then grows by the answer's part after End.
wait_for "answered" "› what is quick links" "Quick Links — widgets/quick-links.md" "${IDLE[@]}"
key F3
wait_for "F3 opens the debug pane under the evidence" "─ Evidence · " "─ Debug" "query     what is quick links"
key Tab
key Tab
key End
wait_for "the debug pane scrolls to its end" "▸ Debug" "prompt: " "100%"
key F4
wait_for "F4 gives the debug pane the whole body" "▸ Debug" "!Evidence · " "!› what is quick links"
key F4
wait_for "F4 again brings the rest back" "─ Evidence · " "▸ Debug"
pass "both panes at 80×24: the debug pane scrolls to its end and zooms"

t resize-window -t "$SESSION" -x 40 -y 12
wait_for "the layout fits 40 columns" "? keys" "Evidence"
size=$(t display -p -t "$TARGET" '#{window_width}x#{window_height}')
[ "$size" = "40x12" ] || fail "window is $size after resizing, want 40x12"
too_wide=$(screen | awk 'length($0) > 40' | head -1)
[ -z "$too_wide" ] || fail "a line is wider than 40 columns: $too_wide"
pass "resize to 40×12: nothing wider than the screen"

t resize-window -t "$SESSION" -x 100 -y 30
wait_for "panes sit on the right at 100 columns" "│─ Evidence · " "│▸ Debug"
esc
key F2
key F3
wait_for "F2 and F3 close the panes" "!Evidence · " "!Debug"
pass "F2 and F3 close the panes"

t resize-window -t "$SESSION" -x 60 -y 20
key F1
wait_for "F1 shows the keys" "Keys  (? or esc closes)" "0%"
press_until "PgDn scrolls the help to its end" PageDown 10 "rate the last answer" "100%"
wait_for "the help is still open" "Keys  ("
esc
wait_for "Esc closes the help" "!Keys  ("
pass "help at 60×20 scrolls to its end with PgDn and closes with Esc"

key C-c
wait_for "Ctrl+C quits cleanly" "docent exited with status 0"
pass "Ctrl+C quits with status 0"

### Start-up on a large folder: progress, then the skipped files.

DOCS="$WORK/docs"
FILES=3000
mkdir -p "$DOCS"/{guides,reference,admin}
for ((i = 0; i < FILES; i++)); do
	dir=guides
	((i % 3 == 1)) && dir=reference
	((i % 3 == 2)) && dir=admin
	printf -- '---\ntitle: Topic %d setup\n---\n## Overview\n\nTopic %d explains how to set up part %d of the product.\n\n## Steps\n\n1. Open the settings.\n2. Choose part %d.\n3. Save.\n' \
		"$i" "$i" "$i" "$i" >"$DOCS/$dir/topic-$i.md"
done
printf -- '---\ntitle: [unclosed\n---\n## Broken\n' >"$DOCS/admin/broken.md"
printf '\xff\xfe not text\n' >"$DOCS/reference/binary.md"
total=$((FILES + 2))

start 80 24 --log "$WORK/docent.log" --docs "$DOCS"
wait_for "start-up shows its progress" "Reading $total files… " "starting…"
pass "start-up: the screen shows the progress ($(grep -o "Reading $total files… [0-9]*/$total" <<<"$S" | head -1))"
TIMEOUT=$((TIMEOUT * 3)) wait_for "then the knowledge base is ready" "$FILES docs · " " · 2 skipped (f5)" "e.g. “tell me about " \
	"!warning: skipped"
pass "start-up: the status bar shows docs, chunks and 2 skipped files (and no stderr over the screen)"
key F5
wait_for "F5 lists the skipped files with reasons" "Skipped files · 2 files" "admin/broken.md" "broken front matter" "reference/binary.md"
esc
key C-c
wait_for "Ctrl+C quits cleanly" "docent exited with status 0"
pass "F5 lists the skipped files with their reasons"

### Team notes: saved from the chat, found again, listed, kept on disk.

NOTES="$WORK/notes.jsonl"
start 100 30 --log "$WORK/docent.log" --workspace acme --user ana --notes-file "$NOTES"
wait_for "ready with a workspace" "docs ·" "? keys"
type_line "/note --private Zebracorn trick: restart the sync agent twice, then reload the page."
wait_for "/note saves the typed text" "Saved private note"
pass "notes: /note --private saves typed text"
type_line "search my notes for zebracorn"
wait_for "the note answers a notes question" "restart the sync agent" "${IDLE[@]}"
pass "notes: a notes question is answered from the note"
type_line "/notes"
wait_for "/notes lists it as the user's own" "Zebracorn trick" "private · you"
pass "notes: /notes lists the note"
key C-c
wait_for "Ctrl+C quits cleanly" "docent exited with status 0"
listed=$(DOCENT_WORKSPACE=acme DOCENT_USER=ana "$BIN" notes list --json --notes-file "$NOTES")
grep -q '"Zebracorn trick' <<<"$listed" || { echo "e2e: FAIL: docent notes list does not show the note saved in the chat: $listed" >&2; exit 1; }
hidden=$(DOCENT_WORKSPACE=acme DOCENT_USER=bo "$BIN" notes list --json --notes-file "$NOTES")
grep -q 'Zebracorn' <<<"$hidden" && { echo "e2e: FAIL: another user sees ana's private note: $hidden" >&2; exit 1; }
pass "notes: the note is on disk for ana, and invisible to bo"

echo "e2e: all checks passed"
