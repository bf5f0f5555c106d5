package stream

// RequestError is a failure Pi meets before it sends anything (no key, a
// header fetch refuses, an option the SDK rejects). Pi reports it as a lone
// error event whose errorMessage is Message; each provider package's
// Failure builds that event.
type RequestError struct{ Message string }

func (e *RequestError) Error() string { return e.Message }
