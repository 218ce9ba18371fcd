package analysis

import "testing"

func TestIsFirstPerson(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"how do i delete my account", true},
		{"notify me when someone follows", true},
		{"is this post mine", true},
		{"how do I get an oauth token", false}, // "how do I" frames any how-to question
		{"delete account", false},
		{"mymastodon settings", false}, // a word, not "my"
	} {
		if got := IsFirstPerson(Tokens(tc.q)); got != tc.want {
			t.Errorf("IsFirstPerson(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestAddressesReader(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"You can delete your account from the settings.", true},
		{"Make the change yourself.", true},
		{"Returns the deleted Account.", false},
		{"The youtube embed is shown.", false},
	} {
		if got := AddressesReader(tc.s); got != tc.want {
			t.Errorf("AddressesReader(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
