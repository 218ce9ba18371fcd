package tui

import "charm.land/bubbles/v2/key"

// keyMap is every binding of the screen. The help view is generated from
// it, so what `?` shows is always what the keys do.
type keyMap struct {
	Send       key.Binding
	Newline    key.Binding
	History    key.Binding
	Stop       key.Binding
	PillMove   key.Binding
	PillPick   key.Binding
	PillNumber key.Binding
	PillCancel key.Binding
	Evidence   key.Binding
	Debug      key.Binding
	Focus      key.Binding
	PaneSelect key.Binding
	PaneExpand key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	Top        key.Binding
	Bottom     key.Binding
	Copy       key.Binding
	Help       key.Binding
	Quit       key.Binding
}

func defaultKeyMap() keyMap {
	return keyMap{
		Send:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:    key.NewBinding(key.WithKeys("alt+enter", "shift+enter", "ctrl+j"), key.WithHelp("alt+enter", "new line")),
		History:    key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "earlier questions (empty input)")),
		Stop:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop the answer")),
		PillMove:   key.NewBinding(key.WithKeys("left", "right", "up", "down"), key.WithHelp("←/→", "choose an option")),
		PillPick:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "pick the option")),
		PillNumber: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1–9", "pick option N")),
		PillCancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "dismiss the options")),
		Evidence:   key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "evidence pane")),
		Debug:      key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "debug pane")),
		Focus:      key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "focus input/pane")),
		PaneSelect: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "select (pane)")),
		PaneExpand: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "expand chunk (pane)")),
		PageUp:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Top:        key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Bottom:     key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom, follow")),
		Copy:       key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy last answer")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys (empty input)")),
		Quit:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// ShortHelp is the one-line reminder.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Evidence, k.Debug, k.Help, k.Quit}
}

// FullHelp groups every binding by what it acts on.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.History, k.Stop, k.Copy},
		{k.PillMove, k.PillPick, k.PillNumber, k.PillCancel},
		{k.Evidence, k.Debug, k.Focus, k.PaneSelect, k.PaneExpand},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Help, k.Quit},
	}
}
