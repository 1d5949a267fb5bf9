package oauth

// smallWords are the words guessed right after the famous passwords: the
// commonest English words, roughly in order of use, then the words people
// put in passwords and in the phrases they quote (songs, films, greetings).
// A whole word of the list, three letters or more, is worth at most
// smallWordBits. Keep it to a few hundred: past that, a word is as likely
// in a passphrase chosen at random.
var smallWords = []string{
	// the commonest English words
	"the", "and", "that", "have", "for", "not", "with", "you", "this", "but", "his", "from", "they",
	"say", "her", "she", "will", "one", "all", "would", "there", "their", "what", "out", "about",
	"who", "get", "which", "when", "make", "can", "like", "time", "just", "him", "know", "take",
	"people", "into", "year", "your", "good", "some", "could", "them", "see", "other", "than",
	"then", "now", "look", "only", "come", "its", "over", "think", "also", "back", "after", "use",
	"two", "how", "our", "work", "first", "well", "way", "even", "new", "want", "because", "any",
	"these", "give", "day", "most", "are", "was", "were", "been", "has", "had", "did", "does",
	"may", "might", "must", "shall", "should", "let", "yes", "why", "where", "here", "very",
	"much", "many", "more", "less", "little", "big", "long", "great", "old", "young", "high", "low",
	"man", "woman", "child", "world", "life", "hand", "part", "place", "case", "week", "company",
	"system", "program", "question", "government", "number", "night", "point", "home", "water",
	"room", "mother", "father", "area", "money", "story", "fact", "month", "lot", "right", "study",
	"book", "eye", "job", "word", "business", "issue", "side", "kind", "head", "house", "service",
	"friend", "power", "hour", "game", "line", "end", "member", "law", "car", "city", "community",
	"name", "team", "minute", "idea", "kid", "body", "information", "face", "others", "level",
	"office", "door", "health", "person", "art", "war", "history", "party", "result", "change",
	"morning", "reason", "research", "girl", "guy", "moment", "air", "teacher", "force",
	"education", "foot", "boy", "age", "policy", "music", "market", "sense", "nation", "plan",
	"base", "belong", "never", "always", "again", "still", "every", "each", "both", "same",
	"find", "tell", "ask", "seem", "feel", "try", "leave", "call", "keep", "put", "mean", "become",
	"show", "hear", "play", "run", "move", "live", "believe", "bring", "happen", "write", "sit",
	"stand", "lose", "pay", "meet", "include", "continue", "set", "learn", "lead", "understand",
	"watch", "follow", "stop", "create", "speak", "read", "spend", "grow", "open", "walk", "win",
	"offer", "remember", "love", "consider", "appear", "buy", "wait", "serve", "die", "send",
	"expect", "build", "stay", "fall", "cut", "reach", "kill", "remain", "best", "better", "last",
	"next", "own", "real", "sure", "free", "true", "death", "light", "dark", "fire",
	"king", "queen", "god", "heart", "soul", "dream", "star", "sun", "moon", "sky", "sea", "earth",
	"black", "white", "red", "blue", "green", "gold", "silver", "happy", "birthday", "merry",
	"christmas", "hello", "goodbye", "thank", "please", "sorry", "baby", "honey",
	// words people put in passwords
	"monkey", "dragon", "shadow", "master", "killer", "ninja", "angel", "tiger", "lion", "wolf",
	"eagle", "bear", "cat", "dog", "puppy", "kitty", "cookie", "cheese", "pizza", "coffee", "chocolate",
	"summer", "winter", "spring", "autumn", "flower", "magic", "lucky", "sweet", "pretty", "cool",
	"super", "hero", "boss", "user", "login", "access", "guest", "test", "demo", "root", "pass",
	"gonna", "wanna", "gotta", "lets", "rock", "roll", "forever", "friends", "family",
	"soccer", "baseball", "basketball", "golf", "fish", "jesus", "mustang", "ferrari",
}

// orderedLists are lists everyone knows in order: a run of three or more of
// their items in a row, forward, wrapping round at the end, is worth 2
// bits in all.
var orderedLists = [][]string{
	{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"},
	{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"},
	{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
		"thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"},
	{"red", "orange", "yellow", "green", "blue", "indigo", "violet"},
	{"mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"},
	{"spring", "summer", "autumn", "winter"},
	{"spring", "summer", "fall", "winter"},
	{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"},
	{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo", "lima", "mike",
		"november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"},
}
