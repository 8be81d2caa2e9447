package ip

// KAnonMIPProblemForm exposes the choice between the step form and the
// big-M form of the numeric attributes to the tests.
var KAnonMIPProblemForm = kanonMIPProblem
