#!/usr/bin/env bash
# End-to-end test of the docent TUI: runs the real binary in a detached
# tmux session of a fixed size, types with send-keys and checks what
# capture-pane shows. On failure it says which check failed, prints the
# screen and exits non-zero. The tmux server it starts (on its own socket,
# so no user session is touched) is always killed.
#
#   DOCENT_BIN   binary to run (default ./bin/docent)
#   DOCENT_ARGS  extra arguments for it (default none)
#   E2E_TIMEOUT  seconds to wait for each screen (default 10)
set -euo pipefail

BIN=${DOCENT_BIN:-./bin/docent}
ARGS=${DOCENT_ARGS:-}
TIMEOUT=${E2E_TIMEOUT:-10}
WIDTH=100
HEIGHT=30
SOCKET="docent-e2e-$$"
SESSION=e2e
TARGET="$SESSION:0.0"

die() { echo "e2e: $*" >&2; exit 2; }
command -v tmux >/dev/null || die "tmux is not installed (apt-get install tmux)"
[ -x "$BIN" ] || die "no executable at $BIN (build it, or set DOCENT_BIN)"

t() { tmux -L "$SOCKET" -f /dev/null "$@"; }
cleanup() { t kill-server >/dev/null 2>&1 || true; }
trap cleanup EXIT

screen() { t capture-pane -p -t "$TARGET" 2>/dev/null || true; }

fail() {
	echo "e2e: FAIL: $*" >&2
	echo "----- screen ($(t display -p -t "$TARGET" '#{window_width}x#{window_height}' 2>/dev/null || echo '?')) -----" >&2
	screen >&2
	echo "-----" >&2
	exit 1
}

# wait_for DESCRIPTION CHECK...: polls the screen until every CHECK holds.
# A CHECK is "text" (must be on screen) or "!text" (must not be).
wait_for() {
	local what=$1
	shift
	local deadline=$((SECONDS + TIMEOUT)) s check ok
	while :; do
		s=$(screen)
		ok=1
		for check in "$@"; do
			if [[ $check == !* ]]; then
				grep -qF -- "${check#!}" <<<"$s" && ok=0
			else
				grep -qF -- "$check" <<<"$s" || ok=0
			fi
		done
		[ $ok = 1 ] && return 0
		[ $SECONDS -ge $deadline ] && fail "$what (waited ${TIMEOUT}s for: $*)"
		sleep 0.05
	done
}

# idle: no turn in progress.
IDLE=("!Searching the docs" "!Answering…")

type_line() { t send-keys -t "$TARGET" -l -- "$1"; t send-keys -t "$TARGET" Enter; }
key() { t send-keys -t "$TARGET" "$@"; }
pass() { echo "e2e: ok   $*"; }

# The program runs under a shell that reports how it ended, so a clean quit
# can be checked after Ctrl+C.
start_ns=$(date +%s%N)
t new-session -d -s "$SESSION" -x "$WIDTH" -y "$HEIGHT" \
	"TERM=xterm-256color $(printf '%q' "$BIN") $ARGS; echo \"docent exited with status \$?\"; sleep 60"
t set-option -t "$SESSION" -g window-size manual >/dev/null 2>&1 || true

wait_for "first frame (status bar)" "docs ·" "chunks" "? keys"
echo "e2e: first frame after $((($(date +%s%N) - start_ns) / 1000000)) ms (includes tmux start and polling)"
pass "start-up: status bar shows the knowledge base"

type_line "what is quick links"
wait_for "the question is echoed and answered" "› what is quick links" "Quick Links" "${IDLE[@]}"
pass "ask: question and answer shown"

type_line "workspace"
wait_for "\"workspace\" offers pills" "› workspace" "Pick:" "▸[1 " " [2 " "${IDLE[@]}"
key Right
wait_for "→ highlights the second pill" "▸[2 " " [1 "
key Enter
wait_for "Enter picks the second pill and its answer appears" "› → " "!Pick:" "${IDLE[@]}"
pass "workspace → pills → → Enter picks the second"

type_line "workspace"
wait_for "pills again" "Pick:" "${IDLE[@]}"
key Escape
wait_for "Esc dismisses the pills" "!Pick:"
pass "Esc dismisses the pills"

STATE=$(mktemp --suffix=.json)
trap 'cleanup; rm -f "$STATE"' EXIT
printf '{"page": "billing", "widgets": [{"name": "Recent", "state": "collapsed"}]}' >"$STATE"
type_line "/context $STATE"
wait_for "/context loads the app state" "Context loaded from" "page: billing"
type_line "/context off"
wait_for "/context off detaches it" "detached."
pass "/context FILE attaches the app state, /context off detaches it"

type_line "workspace"
wait_for "pills again" "Pick:" "${IDLE[@]}"
picks_before=$(screen | grep -cF "› → " || true)
key 2
deadline=$((SECONDS + TIMEOUT))
while [ "$(screen | grep -cF "› → " || true)" -le "$picks_before" ] || screen | grep -qF "Pick:"; do
	[ $SECONDS -ge $deadline ] && fail "2 picks the second pill"
	sleep 0.05
done
wait_for "the picked doc is answered" "${IDLE[@]}"
pass "2 picks the second pill"

key C-e
wait_for "Ctrl+E opens the evidence pane" "Evidence · " "score "
key C-d
wait_for "Ctrl+D opens the debug pane" "─ Debug" "confidence" "Evidence · "
pass "Ctrl+E and Ctrl+D open the panes (side by side at ${WIDTH} columns)"
wait_for "panes sit on the right at ${WIDTH} columns" "│─ Evidence · " "│─ Debug"

t resize-window -t "$SESSION" -x 40 -y 12
wait_for "the layout stacks at 40 columns" "─ Evidence · " "!│─ Evidence" "? keys"
size=$(t display -p -t "$TARGET" '#{window_width}x#{window_height}')
[ "$size" = "40x12" ] || fail "window is $size after resizing, want 40x12"
too_wide=$(screen | awk 'length($0) > 40' | head -1)
[ -z "$too_wide" ] || fail "a line is wider than 40 columns: $too_wide"
pass "resize to 40×12: panes stack under the transcript"

t resize-window -t "$SESSION" -x "$WIDTH" -y "$HEIGHT"
key C-e
key C-d
wait_for "Ctrl+E and Ctrl+D close the panes" "!Evidence · " "!─ Debug"
pass "Ctrl+E and Ctrl+D close the panes"

key C-c
wait_for "Ctrl+C quits cleanly" "docent exited with status 0"
pass "Ctrl+C quits with status 0"
echo "e2e: all checks passed"
