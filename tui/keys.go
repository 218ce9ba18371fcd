package tui

import "charm.land/bubbles/v2/key"

// keyMap is every binding of the screen. The help view is generated from
// it, so what `?` shows is always what the keys do. The screen's own keys
// stay off the keys an editor uses (Home, End, Ctrl+A, Ctrl+E, Ctrl+D…):
// those belong to the input while it has focus.
type keyMap struct {
	Send       key.Binding
	Newline    key.Binding
	History    key.Binding
	LineStart  key.Binding
	LineEnd    key.Binding
	Stop       key.Binding
	Queue      key.Binding
	PillMove   key.Binding
	PillPick   key.Binding
	PillNumber key.Binding
	PillCancel key.Binding
	Evidence   key.Binding
	Debug      key.Binding
	Zoom       key.Binding
	Focus      key.Binding
	PaneSelect key.Binding
	PaneExpand key.Binding
	// PaneInclude and PaneReask choose the evidence an answer is written
	// from: the evidence pane's own keys, so only while it has focus.
	PaneInclude key.Binding
	PaneReask   key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	Top         key.Binding
	Bottom      key.Binding
	Skipped     key.Binding
	Copy        key.Binding
	CopyText    key.Binding
	Help        key.Binding
	Quit        key.Binding
}

func defaultKeyMap() keyMap {
	return keyMap{
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:     key.NewBinding(key.WithKeys("alt+enter", "shift+enter", "ctrl+j"), key.WithHelp("alt+enter", "new line")),
		History:     key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "earlier questions (empty input)")),
		LineStart:   key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home/ctrl+a", "start of the line")),
		LineEnd:     key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end/ctrl+e", "end of the line")),
		Stop:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop the answer")),
		Queue:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "while answering: queue it")),
		PillMove:    key.NewBinding(key.WithKeys("left", "right", "up", "down"), key.WithHelp("←/→", "choose an option")),
		PillPick:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "pick the option")),
		PillNumber:  key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1–9", "pick option N")),
		PillCancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "dismiss the options")),
		Evidence:    key.NewBinding(key.WithKeys("f2", "alt+e"), key.WithHelp("f2/alt+e", "evidence pane")),
		Debug:       key.NewBinding(key.WithKeys("f3", "alt+d"), key.WithHelp("f3/alt+d", "debug pane")),
		Zoom:        key.NewBinding(key.WithKeys("f4", "alt+z"), key.WithHelp("f4/alt+z", "pane full screen")),
		Focus:       key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "focus input/panes")),
		PaneSelect:  key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll, select (pane)")),
		PaneExpand:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "expand chunk (evidence)")),
		PaneInclude: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "leave chunk out (evidence)")),
		PaneReask:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "answer from the rest")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Top:         key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top (pane)")),
		Bottom:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom (pane)")),
		Skipped:     key.NewBinding(key.WithKeys("f5", "alt+s"), key.WithHelp("f5/alt+s", "skipped files")),
		Copy:        key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy last answer with sources")),
		CopyText:    key.NewBinding(key.WithKeys("alt+y"), key.WithHelp("alt+y", "copy last answer's text alone")),
		Help:        key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?/f1", "keys (? on empty input)")),
		Quit:        key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// ShortHelp is the one-line reminder.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Evidence, k.Debug, k.Help, k.Quit}
}

// FullHelp groups every binding by what it acts on.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.History, k.LineStart, k.LineEnd, k.Stop, k.Queue},
		{k.PillMove, k.PillPick, k.PillNumber, k.PillCancel, k.Copy, k.CopyText},
		{k.Evidence, k.Debug, k.Zoom, k.Focus, k.PaneSelect, k.PaneExpand, k.PaneInclude, k.PaneReask},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Skipped, k.Help, k.Quit},
	}
}
