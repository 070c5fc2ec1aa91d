package rule_test

// NotificationPreference is a person's own choice of what reaches them from every venue (one
// row per user), not a venue's data: global and user-owned like sessions, read by a venue's
// messages only through a named system site by the recipients' ids.
func init() { globalTypes = append(globalTypes, "NotificationPreference") }
