package catalogue

import "math"

func cosDeg(d float64) float64 { return math.Cos(d * math.Pi / 180) }
