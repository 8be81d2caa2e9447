package roles

// Codes exports codes to the external tests.
var Codes = codes
