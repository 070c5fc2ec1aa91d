package config

// Installation returns the settings the installation keeps in its database
// when the environment leaves them unset (Setting.InstallBytes).
func Installation() []Setting {
	var out []Setting
	for _, s := range Settings {
		if s.InstallBytes > 0 {
			out = append(out, s)
		}
	}
	return out
}

// FillSecrets sets every installation secret c leaves empty to the value
// get returns for it (package platform reads or generates it in the
// database), and returns the variables it filled. A value the flags or the
// environment gave wins: it is not asked for.
func (c *Config) FillSecrets(get func(s Setting) (string, error)) ([]string, error) {
	var filled []string
	for _, s := range Installation() {
		field := c.secret(s.Env)
		if *field != "" {
			continue
		}
		v, err := get(s)
		if err != nil {
			return filled, err
		}
		*field = v
		filled = append(filled, s.Env)
	}
	return filled, nil
}

// secret is the field of an installation secret.
func (c *Config) secret(env string) *string {
	switch env {
	case "VENUE_JWT_SIGNING_KEY":
		return &c.Tokens.SigningKey
	case "VENUE_CODE_PEPPER":
		return &c.Tokens.Pepper
	case "VENUE_CURSOR_SECRET":
		return &c.Cursors.Secret
	case "VENUE_WEBHOOK_SECRET_KEY":
		return &c.Webhooks.SecretKey
	}
	panic("config: " + env + " is no installation secret")
}
