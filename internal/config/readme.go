package config

import "strings"

// MarkdownTable is the README's configuration table, made from Settings.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| setting | flag | environment | default |\n|---|---|---|---|\n")
	for _, s := range Settings {
		flag := "-"
		if s.Flag != "" {
			flag = "`--" + s.Flag + "`"
		}
		def := s.DefaultText
		if def == "" {
			def = "`" + s.Default + "`"
		}
		b.WriteString("| " + s.Description + " | " + flag + " | `" + s.Env + "` | " + def + " |\n")
	}
	return b.String()
}
