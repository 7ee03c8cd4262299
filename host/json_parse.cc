// Reading a request's JSON with simdjson into jansson values: jansson is the slowest stage of
// a never-seen request (about 150 instructions a byte), simdjson a few, and the host's methods
// keep working on jansson values.  Whatever simdjson refuses or reads differently from jansson
// is read again by jansson, so every error message, and every edge jansson decides, stays
// jansson's.  A request's move list (params.game.moves) and dead list (params.dead) can be read
// as strings without jansson values at all: half of a `legal` request went to making and
// freeing the moves' values, and a sixth of a `score` request to the dead stones'.
#include <cstdlib>
#include <cstring>

#include <simdjson.h>

#include "json_parse.h"

namespace {

// A value jansson would not give the same (a NUL in a string, an integer past int64, a
// duplicate key): the caller then reads the text with jansson instead.
struct not_for_us {};

json_t *convert(simdjson::dom::element e);

// Where an object stands in a request: only the request's own params.game.moves and params.dead
// are read as lists, since those are what the methods read (sht_game_from_params,
// sht_params_dead).
enum class place { elsewhere, request, params, game };

// The lists a request's text is read into, and its length.
struct lists {
	sht_move_list *moves, *dead;
	size_t text_len;
};

// A list, read: the items of an array of strings jansson would give the same (no NUL), copied
// into one block that outlives the parser (a method may read other JSON with it, as `compare`
// does scoring); `owner` is the object the array was a member of.  False when an item is
// anything else: the array is then converted.
// A string's bytes and its NUL take no more room than its text did, quotes included, so the
// block is sized once from the request's length and filled in one pass, byte by byte (the
// strings are a few bytes each: a call to memchr and one to memcpy apiece cost more).
bool
take_strings(simdjson::dom::array a, size_t text_len, const json_t *owner, sht_move_list *list)
{
	size_t n = a.size(), k = 0;
	char *block, *text;
	const char **moves;

	block = static_cast<char *>(std::malloc(n * sizeof(char *) + text_len + 1));
	if (block == nullptr)
		throw not_for_us();
	moves = reinterpret_cast<const char **>(block);
	text = block + n * sizeof(char *);
	for (auto item : a) {
		std::string_view s;

		if (k == n || item.get_string().get(s) != simdjson::SUCCESS) {
			std::free(block);
			return false;
		}
		moves[k++] = text;
		for (char c : s) {
			if (c == '\0') {
				std::free(block);
				return false;
			}
			*text++ = c;
		}
		*text++ = '\0';
	}
	list->owner = owner;
	list->n = k;
	list->moves = moves;
	list->block = block;
	return true;
}

json_t *
convert_object(simdjson::dom::object o, place at = place::elsewhere, const lists *into = nullptr)
{
	json_t *out = json_object();

	if (out == nullptr)
		throw not_for_us();
	for (auto field : o) {
		std::string_view key = field.key;
		json_t *v = nullptr;

		// jansson keys are C strings; a key holding a NUL, or said twice (the requests
		// are read with JSON_REJECT_DUPLICATES), is jansson's to refuse.
		if (key.find('\0') != std::string_view::npos ||
		    json_object_getn(out, key.data(), key.size()) != nullptr) {
			json_decref(out);
			throw not_for_us();
		}
		try {
			if (into != nullptr && at == place::request && key == "params" &&
			    field.value.is_object())
				v = convert_object(field.value.get_object().value_unsafe(),
				    place::params, into);
			else if (into != nullptr && at == place::params && key == "game" &&
			    field.value.is_object())
				v = convert_object(field.value.get_object().value_unsafe(),
				    place::game, into);
			else if (into != nullptr && at == place::game && key == "moves" &&
			    field.value.is_array() && into->moves->block == nullptr &&
			    take_strings(field.value.get_array().value_unsafe(), into->text_len, out,
			    into->moves))
				v = json_null(); // the list's place: a game read without it is refused
			else if (into != nullptr && at == place::params && key == "dead" &&
			    field.value.is_array() && into->dead->block == nullptr &&
			    take_strings(field.value.get_array().value_unsafe(), into->text_len, out,
			    into->dead))
				v = json_null(); // and dead stones read without it are refused
			else
				v = convert(field.value);
		} catch (...) {
			json_decref(out);
			throw;
		}
		if (json_object_setn_new_nocheck(out, key.data(), key.size(), v) != 0) {
			json_decref(out);
			throw not_for_us();
		}
	}
	return out;
}

json_t *
convert_array(simdjson::dom::array a)
{
	json_t *out = json_array();

	if (out == nullptr)
		throw not_for_us();
	for (auto item : a) {
		json_t *v;

		try {
			v = convert(item);
		} catch (...) {
			json_decref(out);
			throw;
		}
		if (json_array_append_new(out, v) != 0) {
			json_decref(out);
			throw not_for_us();
		}
	}
	return out;
}

json_t *
convert(simdjson::dom::element e)
{
	json_t *v = nullptr;

	switch (e.type()) {
	case simdjson::dom::element_type::OBJECT:
		return convert_object(e.get_object().value_unsafe());
	case simdjson::dom::element_type::ARRAY:
		return convert_array(e.get_array().value_unsafe());
	case simdjson::dom::element_type::STRING: {
		std::string_view s = e.get_string().value_unsafe();

		// jansson refuses \u0000 in a string unless told otherwise.  simdjson checked
		// the UTF-8, so jansson need not check it again.
		if (s.find('\0') != std::string_view::npos)
			throw not_for_us();
		v = json_stringn_nocheck(s.data(), s.size());
		break;
	}
	case simdjson::dom::element_type::INT64:
		v = json_integer((json_int_t)e.get_int64().value_unsafe());
		break;
	case simdjson::dom::element_type::UINT64:
		// Past INT64_MAX: jansson says "too big integer", with the place.
		throw not_for_us();
	case simdjson::dom::element_type::DOUBLE:
		v = json_real(e.get_double().value_unsafe());
		break;
	case simdjson::dom::element_type::BOOL:
		v = json_boolean(e.get_bool().value_unsafe());
		break;
	case simdjson::dom::element_type::NULL_VALUE:
		v = json_null();
		break;
	}
	if (v == nullptr)
		throw not_for_us();
	return v;
}

// Texts up to this long are read by one simdjson parser per thread, reused; a longer one (a
// request may be as long as max_request_bytes) by jansson.  A parser keeps buffers of several
// times the longest text it has read, and a text of its own would leave that much in the
// worker's heap after it is freed; such texts are rare, and jansson reads them in about 12 ns a
// byte.
constexpr size_t KEPT_PARSER_CAPACITY = 64 * 1024;

// The value simdjson reads, converted (a request's move and dead lists into *moves and *dead,
// when they are given); NULL when jansson must read the text instead.
json_t *
read_with(simdjson::dom::parser &parser, const char *text, size_t len, sht_move_list *moves,
    sht_move_list *dead)
{
	simdjson::dom::element doc;

	if (parser.parse(text, len, true).get(doc) != simdjson::SUCCESS ||
	    !(doc.is_object() || doc.is_array()))
		return nullptr;
	// Without JSON_REJECT_DUPLICATES jansson keeps the last of two equal keys: the
	// conversion refuses them either way, and jansson reads such a text.
	try {
		if (moves != nullptr && doc.is_object()) {
			const lists into = { moves, dead, len };

			return convert_object(doc.get_object().value_unsafe(), place::request, &into);
		}
		return convert(doc);
	} catch (const not_for_us &) {
	} catch (const std::bad_alloc &) {
	}
	if (moves != nullptr) {
		sht_move_list_free(moves);
		sht_move_list_free(dead);
	}
	return nullptr;
}

// One simdjson parser per thread, reused, for every text up to KEPT_PARSER_CAPACITY.
simdjson::dom::parser &
kept_parser()
{
	static thread_local simdjson::dom::parser kept(KEPT_PARSER_CAPACITY);

	return kept;
}

} // namespace

extern "C" json_t *
sht_json_read(const char *text, size_t len, size_t flags, json_error_t *err)
{
	json_t *v = nullptr;

	// jansson's duplicate-key check is the only flag a reader here passes; anything else
	// is jansson's alone.
	if ((flags & ~(size_t)JSON_REJECT_DUPLICATES) == 0 && len > 0 &&
	    len <= KEPT_PARSER_CAPACITY)
		v = read_with(kept_parser(), text, len, nullptr, nullptr);
	return v != nullptr ? v : json_loadb(text, len, flags, err);
}

extern "C" json_t *
sht_json_read_request(const char *text, size_t len, json_error_t *err, sht_move_list *moves,
    sht_move_list *dead)
{
	json_t *v = nullptr;

	std::memset(moves, 0, sizeof(*moves));
	std::memset(dead, 0, sizeof(*dead));
	if (len > 0 && len <= KEPT_PARSER_CAPACITY)
		v = read_with(kept_parser(), text, len, moves, dead);
	return v != nullptr ? v : json_loadb(text, len, JSON_REJECT_DUPLICATES, err);
}

extern "C" void
sht_move_list_free(sht_move_list *list)
{
	std::free(list->block);
	std::memset(list, 0, sizeof(*list));
}
