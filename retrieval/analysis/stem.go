package analysis

// StemKey is the index key under which a term's morphological variants
// meet: the Porter stem behind a prefix no analyzed term can start with
// (terms are letters and digits). "deleting" and "delete", "moving" and
// "move" share a key, and so do a clipped word and its full form: "repo"
// and "repository", "config" and "configuring" (see clippedWords).
//
// The keys add rank (a variant is worth half of the word itself, which
// scores under its own term too) and are what the decision policy's
// coverage counts: a question about deleting an account is covered by a
// section titled "Delete your account".
func StemKey(term string) string {
	if full, ok := clippedWords[term]; ok {
		term = full
	}
	return "~" + porterStem(term)
}

// clippedWords are the clipped forms people type for words docs write in
// full, or the other way round: the same word, shortened, with no other
// reading in software help. A clip that is also another word or
// abbreviation is left out: "auth" (authentication or authorization),
// "org" (an organization or the .org of an address), "sub", "docs"
// (documentation, or documents in a document store), "app" (an
// application, or an app store's app, which docs write as a word of its
// own), "min" (minimum, or minutes), "hr" (hours, or human resources),
// "prod" (production, or product), "dev", "temp", "spec", "ref", "ep" (an
// episode, or an endpoint).
var clippedWords = map[string]string{
	"repo": "repository", "repos": "repositories",
	"config": "configuration", "configs": "configurations",
	"info": "information",
	"env":  "environment", "envs": "environments",
	"dir": "directory", "dirs": "directories",
	"admin": "administrator", "admins": "administrators",
	"pic": "picture", "pics": "pictures",
	"img": "image", "imgs": "images",
	"msg": "message", "msgs": "messages",
	"pwd":  "password",
	"acct": "account", "accts": "accounts",
	"pref": "preference", "prefs": "preferences",
	"ppl":   "people",
	"notif": "notification", "notifs": "notifications",
	"db": "database", "dbs": "databases",
	"stats": "statistics",
	"max":   "maximum",
	"qty":   "quantity",
	"sync":  "synchronize", "syncing": "synchronizing", "synced": "synchronized",
	"cert": "certificate", "certs": "certificates",
	"convo": "conversation", "convos": "conversations",
	"perms": "permissions",
	"creds": "credentials",
	"vid":   "video", "vids": "videos",
	"hrs": "hours", "mins": "minutes", "secs": "seconds",
	"wk": "week", "wks": "weeks", "yr": "year", "yrs": "years",
	"txn": "transaction", "txns": "transactions",
	"pkg": "package", "pkgs": "packages",
	"addr": "address",
	"biz":  "business",
	"mgr":  "manager", "mgrs": "managers",
	"dept": "department", "depts": "departments",
}
