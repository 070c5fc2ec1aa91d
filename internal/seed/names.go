package seed

var firstNames = []string{
	"Astrid", "Bo", "Clara", "Emil", "Freja", "Gustav", "Ida", "Jonas", "Karla", "Lucas",
	"Mathilde", "Noah", "Olivia", "Oscar", "Sofie", "William", "Alma", "Carl", "Ella", "Frederik",
	"Laura", "Magnus", "Nanna", "Rasmus", "Signe", "Tobias", "Vera", "Aksel", "Liva", "Mikkel",
}

var lastNames = []string{
	"Nielsen", "Jensen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sørensen",
	"Rasmussen", "Jørgensen", "Petersen", "Madsen", "Kristensen", "Olsen", "Thomsen", "Christiansen",
	"Poulsen", "Johansen", "Møller", "Mortensen", "Holm", "Lund", "Berg", "Dahl",
}

var neighbourhoods = []struct {
	name, street string
	lat, lng     float64
}{
	{"Vesterbro", "Istedgade", 55.6699, 12.5533},
	{"Nørrebro", "Nørrebrogade", 55.6941, 12.5491},
	{"Østerbro", "Østerbrogade", 55.7058, 12.5776},
	{"Frederiksberg", "Gammel Kongevej", 55.6786, 12.5335},
	{"Amager", "Amagerbrogade", 55.6601, 12.6010},
	{"Indre By", "Store Kongensgade", 55.6845, 12.5870},
	{"Valby", "Valby Langgade", 55.6617, 12.5163},
	{"Nordhavn", "Århusgade", 55.7105, 12.5910},
}

var classTypeNames = []struct {
	name, slug string
	minutes    int
	brand      int
}{
	{"Vinyasa Flow", "vinyasa-flow", 60, 0},
	{"Yin Yoga", "yin-yoga", 75, 0},
	{"Hot Power Yoga", "hot-power-yoga", 60, 0},
	{"Spin 45", "spin-45", 45, 1},
	{"HIIT", "hiit", 45, 1},
	{"Pilates Mat", "pilates-mat", 50, 1},
}

// FirstNames returns the first names seeded members are given (a copy).
func FirstNames() []string { return append([]string(nil), firstNames...) }

// LastNames returns the last names seeded members are given (a copy).
func LastNames() []string { return append([]string(nil), lastNames...) }
