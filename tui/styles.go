package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Theme picks the colours: the terminal background decides between dark
// and light unless an Option forces one.
type Theme int

const (
	ThemeAuto Theme = iota // ask the terminal for its background colour
	ThemeDark
	ThemeLight
)

// styles holds every lipgloss style the screen uses. Colours are chosen
// for a dark or light background; under NO_COLOR Bubble Tea's colour
// profile drops them, so no state is ever shown by colour alone (selected
// items also carry a marker).
type styles struct {
	dark bool

	user       lipgloss.Style
	userMark   lipgloss.Style
	footer     lipgloss.Style
	errorText  lipgloss.Style
	welcome    lipgloss.Style
	rule       lipgloss.Style
	paneTitle  lipgloss.Style
	paneActive lipgloss.Style
	label      lipgloss.Style
	dim        lipgloss.Style
	selected   lipgloss.Style
	highlight  lipgloss.Style
	pill       lipgloss.Style
	pillActive lipgloss.Style
	status     lipgloss.Style
	statusKey  lipgloss.Style
	spinner    lipgloss.Style
	notice     lipgloss.Style
	help       help.Styles
}

func newStyles(dark bool) styles {
	ld := lipgloss.LightDark(dark)
	accent := ld(lipgloss.Color("#5A4FCF"), lipgloss.Color("#A8A0FF"))
	subtle := ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	faint := ld(lipgloss.Color("#D0D0D0"), lipgloss.Color("#3A3A3A"))
	text := ld(lipgloss.Color("#1F1F1F"), lipgloss.Color("#E4E4E4"))
	warn := ld(lipgloss.Color("#B3261E"), lipgloss.Color("#FF8A80"))
	mark := ld(lipgloss.Color("#7A5C00"), lipgloss.Color("#FFD166"))
	barBg := ld(lipgloss.Color("#E8E6F8"), lipgloss.Color("#26233A"))

	return styles{
		dark:       dark,
		user:       lipgloss.NewStyle().Foreground(text).Bold(true),
		userMark:   lipgloss.NewStyle().Foreground(accent).Bold(true),
		footer:     lipgloss.NewStyle().Foreground(subtle).Italic(true),
		errorText:  lipgloss.NewStyle().Foreground(warn),
		welcome:    lipgloss.NewStyle().Foreground(subtle),
		rule:       lipgloss.NewStyle().Foreground(faint),
		paneTitle:  lipgloss.NewStyle().Foreground(subtle).Bold(true),
		paneActive: lipgloss.NewStyle().Foreground(accent).Bold(true),
		label:      lipgloss.NewStyle().Foreground(text).Bold(true),
		dim:        lipgloss.NewStyle().Foreground(subtle),
		selected:   lipgloss.NewStyle().Foreground(accent).Bold(true),
		highlight:  lipgloss.NewStyle().Foreground(mark).Bold(true).Underline(true),
		pill:       lipgloss.NewStyle().Foreground(text),
		pillActive: lipgloss.NewStyle().Foreground(accent).Bold(true).Reverse(true),
		status:     lipgloss.NewStyle().Foreground(text).Background(barBg),
		statusKey:  lipgloss.NewStyle().Foreground(accent).Background(barBg).Bold(true),
		spinner:    lipgloss.NewStyle().Foreground(accent),
		notice:     lipgloss.NewStyle().Foreground(subtle).Italic(true),
		help:       help.DefaultStyles(dark),
	}
}
