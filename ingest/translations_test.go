package ingest

import (
	"slices"
	"testing"
	"testing/fstest"
)

const (
	enBackups = "---\ntitle: Backups\n---\n\nTake a backup from the Settings page. The backup is kept for 30 days, and you can restore it when you need to.\n"
	esBackups = "---\ntitle: Copias de seguridad\n---\n\nHaz una copia de seguridad desde la página de ajustes. La copia se guarda durante 30 días y puedes restaurarla cuando la necesites.\n"
	jaBackups = "---\ntitle: バックアップ\n---\n\n設定ページからバックアップを作成します。バックアップは30日間保存され、必要なときに復元できます。\n"
	enExports = "---\ntitle: Exports\n---\n\nExport your data as a CSV file from the Reports page. The export is emailed to you when it is ready.\n"
	deExports = "---\ntitle: Exporte\n---\n\nExportieren Sie Ihre Daten als CSV-Datei auf der Seite Berichte. Der Export wird Ihnen per E-Mail geschickt, sobald er fertig ist.\n"
)

// A language folder mirroring the site is its translation: its twins go,
// the English pages stay; an untranslated page in it (English with its
// title translated) is a copy, and goes as copies do.
func TestDropTranslations(t *testing.T) {
	fsys := fstest.MapFS{
		"guide/backups.md":             {Data: []byte(enBackups)},
		"guide/exports.md":             {Data: []byte(enExports)},
		"es/guide/backups.md":          {Data: []byte(esBackups)},
		"es/guide/exports.md":          {Data: []byte("---\ntitle: Exportaciones\n---\n" + enExports[len("---\ntitle: Exports\n---\n"):])},
		"ja/guide/backups.md":          {Data: []byte(jaBackups)},
		"ja/guide/only-in-japanese.md": {Data: []byte("---\ntitle: 日本のお客様へ\n---\n\n日本国内の請求書は円で発行されます。\n")},
	}
	res, slugs := loadSlugs(t, fsys)
	// ja/ has a page of its own beside its twin: half its pages are twins,
	// so it is a translation, and its page without an English twin stays.
	if want := []string{"guide/backups", "guide/exports", "ja/guide/only-in-japanese"}; !slices.Equal(slugs, want) {
		t.Fatalf("docs %q, want %q", slugs, want)
	}
	notes := noticeLines(res)
	checkNotes(t, notes, []string{
		"es/guide/backups.md: a translation of guide/backups.md",
		"es/guide/exports.md: a copy of guide/exports.md", // an untranslated page: a copy
		"ja/guide/backups.md: a translation of guide/backups.md",
	})
}

// A folder of the site's own named like a language ("it" for the IT
// team) is no translation, though one of its pages has a twin.
func TestLanguageNamedFolderIsNoTranslation(t *testing.T) {
	fsys := fstest.MapFS{
		"faq.md":       {Data: []byte("---\ntitle: FAQ\n---\n\nAnswers to the questions customers ask the most about orders.\n")},
		"it/faq.md":    {Data: []byte("---\ntitle: IT FAQ\n---\n\nAnswers to the questions staff ask the IT team about laptops.\n")},
		"it/vpn.md":    {Data: []byte("---\ntitle: VPN\n---\n\nConnect to the VPN with the client on your laptop before you open the intranet.\n")},
		"it/laptop.md": {Data: []byte("---\ntitle: Laptops\n---\n\nA new laptop is ready within two days of the request to the IT team.\n")},
	}
	if _, slugs := loadSlugs(t, fsys); len(slugs) != 4 {
		t.Errorf("docs %q, want all four", slugs)
	}
}

// A site written in another language with an English version under en/:
// the English pages are read, the site's own go.
func TestEnglishVersionOfAnotherLanguage(t *testing.T) {
	fsys := fstest.MapFS{
		"guide/exports.md":    {Data: []byte(deExports)},
		"en/guide/exports.md": {Data: []byte(enExports)},
	}
	if _, slugs := loadSlugs(t, fsys); !slices.Equal(slugs, []string{"en/guide/exports"}) {
		t.Errorf("docs %q, want the English page", slugs)
	}
}

func TestIsLanguageCode(t *testing.T) {
	for seg, want := range map[string]bool{
		"es": true, "ja": true, "zh-cn": true, "zh_CN": true, "pt-BR": true, "zh-hans": true, "EN": true,
		"xx": false, "guide": false, "e": false, "es-": false, "es-1": false, "en-toolongregion": false, "": false,
		"it-team": false, "de-dev": false, "sr-latn": true,
	} {
		if got := isLanguageCode(seg); got != want {
			t.Errorf("isLanguageCode(%q) = %v, want %v", seg, got, want)
		}
	}
}

// Hugo keeps every language in a folder of its own (content/en,
// content/fr): the English versions are read.
func TestLanguageFoldersSideBySide(t *testing.T) {
	frExports := "---\ntitle: Exports\n---\n\nExportez vos données au format CSV depuis la page Rapports. L'export vous est envoyé par e-mail dès qu'il est prêt.\n"
	fsys := fstest.MapFS{
		"en/guide/exports.md": {Data: []byte(enExports)},
		"fr/guide/exports.md": {Data: []byte(frExports)},
		"de/guide/exports.md": {Data: []byte(deExports)},
		"en/guide/backups.md": {Data: []byte(enBackups)},
		"es/guide/backups.md": {Data: []byte(esBackups)},
	}
	if _, slugs := loadSlugs(t, fsys); !slices.Equal(slugs, []string{"en/guide/backups", "en/guide/exports"}) {
		t.Errorf("docs %q, want the English versions", slugs)
	}
}

// Hugo and mkdocs-static-i18n may name a translation by its file name
// ("exports.fr.md" beside "exports.md"): the page without the code is read.
func TestTranslationsByFileName(t *testing.T) {
	frExports := "---\ntitle: Exports\n---\n\nExportez vos données au format CSV depuis la page Rapports. L'export vous est envoyé par e-mail dès qu'il est prêt.\n"
	fsys := fstest.MapFS{
		"guide/exports.md":    {Data: []byte(enExports)},
		"guide/exports.fr.md": {Data: []byte(frExports)},
		"guide/backups.md":    {Data: []byte(enBackups)},
		"guide/backups.es.md": {Data: []byte(esBackups)},
		"release.v1.it.md":    {Data: []byte("---\ntitle: Release\n---\n\nThe first release of the mobile app shipped in March with offline notes.\n")},
	}
	if _, slugs := loadSlugs(t, fsys); !slices.Equal(slugs, []string{"guide/backups", "guide/exports", "release.v1.it"}) {
		t.Errorf("docs %q, want the English pages and the page without a twin", slugs)
	}
}
