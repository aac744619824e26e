package secrets

import "testing"

// TestPublicValuesAreNotSecrets: public keys, certificates and document
// ids are addresses and identities, not credentials; a file holding one
// must still compact.
func TestPublicValuesAreNotSecrets(t *testing.T) {
	for _, text := range []string{
		"[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nAllowedIPs = 10.0.0.0/24",
		"- Omar's WireGuard public key is xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl omar@laptop",
		"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0\n-----END CERTIFICATE-----",
		"- Spec: https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit?usp=sharing (key decisions)",
		"the password is in the vault", "Das Passwort ist im Tresor gespeichert.", "パスワードは管理者に聞く",
		"Passwort: mindestens zwölf Zeichen", "the password was changed to something stronger", "passwords: rotate every 90 days",
	} {
		if fs := Scan(text); len(fs) > 0 {
			t.Errorf("flagged %q: %+v", text, fs)
		}
	}
}

// TestProsePasswordsAreSecrets: a password written as a sentence, in the
// languages memory files are written in, is found, with its value.
func TestProsePasswordsAreSecrets(t *testing.T) {
	for _, c := range []struct{ text, rule string }{
		{"the password is hunter2-xyz", "prose-password"},
		{"- The wifi password for the cabin is Maple77!", "prose-password"},
		{"Passwort: Sommer2024!", "prose-password"},
		{"Das WLAN-Passwort lautet Kiefer-88", "prose-password"},
		{"contraseña: gatito-azul-77", "prose-password"},
		{"le mot de passe est Chouette#42", "prose-password"},
		{"密码是 qwe789xyz", "prose-password"},
		{"路由器密码：qwe789xyz，别外传", "prose-password"},
		{"NASのパスワードは「tanuki-4481」です", "prose-password"},
		{"비밀번호는 sunflower88 입니다", "prose-password"},
		{"[Interface]\nPrivateKey = /+eeA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", "wireguard-private-key"},
	} {
		fs := Scan(c.text)
		if len(fs) != 1 || fs[0].Rule != c.rule {
			t.Errorf("%q: got %+v, want one %s", c.text, fs, c.rule)
		}
	}
}
