// Package migrations holds docent's PostgreSQL schema as golang-migrate
// files (NNN_name.up.sql / NNN_name.down.sql) embedded in the binary, so a
// deployed docent can create or upgrade its schema without extra files.
package migrations

import "embed"

// FS holds every migration file at its root, ready for golang-migrate's
// iofs source (path ".").
//
//go:embed *.sql
var FS embed.FS
