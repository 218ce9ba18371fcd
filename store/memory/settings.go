package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/docent-sh/docent/store"
)

var _ store.RetrievalSwitch = (*Store)(nil)

// settingsFile is the settings file's content.
type settingsFile struct {
	RetrievalEnabled *bool `json:"retrieval_enabled,omitempty"`
}

// RetrievalEnabled reads the kill switch: true unless turned off
// (store.RetrievalSwitch). A missing settings file is the defaults; one
// that does not parse is an error naming it, and the caller keeps what
// it knew.
func (s *Store) RetrievalEnabled(ctx context.Context) (bool, error) {
	if err := ctx.Err(); err != nil {
		return true, err
	}
	s.settingsMu.Lock()
	defer s.settingsMu.Unlock()
	if s.opts.SettingsPath == "" {
		return !s.retrievalOff, nil
	}
	f, err := s.readSettings()
	if err != nil {
		return true, err
	}
	return f.RetrievalEnabled == nil || *f.RetrievalEnabled, nil
}

// SetRetrievalEnabled turns retrieval on or off for every docent on this
// store's settings file. The file is rewritten whole; one that does not
// parse is refused rather than overwritten.
func (s *Store) SetRetrievalEnabled(ctx context.Context, enabled bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.settingsMu.Lock()
	defer s.settingsMu.Unlock()
	if s.opts.SettingsPath == "" {
		s.retrievalOff = !enabled
		return nil
	}
	f, err := s.readSettings()
	if err != nil {
		return err
	}
	f.RetrievalEnabled = &enabled
	data, _ := json.MarshalIndent(f, "", "  ")
	if _, err := writeFileAtomic(s.opts.SettingsPath, append(data, '\n')); err != nil {
		return fmt.Errorf("set the retrieval switch: %w", err)
	}
	return nil
}

// readSettings reads the settings file; a missing one is the defaults.
func (s *Store) readSettings() (settingsFile, error) {
	var f settingsFile
	data, err := os.ReadFile(s.opts.SettingsPath)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read settings: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return settingsFile{}, fmt.Errorf("read settings %s: %w (fix or remove the file)", s.opts.SettingsPath, err)
	}
	return f, nil
}
