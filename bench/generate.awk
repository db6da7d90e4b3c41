# Generates benchmark articles (see bench/app/schemas/article.sd), the same output for the same arguments on any awk:
# a fixed Park-Miller generator, no srand().
#   -v mode=feed  -v count=N -v bytes=B [-v prefix=P]   N JSONL puts {"put":"id:bench:article::<P><n>","fields":{…}}
#   -v mode=body  -v bytes=B                             one put body {"fields":{…}}
# The {"fields":{…}} object of every document is exactly B bytes (B at least 200).
function next_random(n) {
  seed = (seed * 16807) % 2147483647
  return seed % n
}
function word() {
  return words[1 + next_random(word_count)]
}
BEGIN {
  seed = 20261122
  word_count = split("the of and to in is that for it as was with be by on not this are or from at which but have " \
                     "an they you were her she there been one all would their we him has when who will more no if " \
                     "out so said what up its about into than them can only other new some could time these two may " \
                     "then do first any my now such like our over even most made after also did many before must " \
                     "through back years where much your way well store document bucket slice visit feed cluster " \
                     "schema field tensor river sluice gate water flow stream channel lock dam", words, " ")
  text = ""
  while (length(text) < 131072) text = text word() " "
  if (bytes < 200) { print "bytes must be at least 200, not " bytes > "/dev/stderr"; exit 1 }
  for (n = 0; n < count; n++) {
    tags = "\"" word() "\""
    for (t = next_random(4); t > 0; t--) tags = tags ",\"" word() "\""
    head = "{\"fields\":{\"title\":\"Article " n " on " word() " and " word() "\",\"year\":" (1950 + next_random(76)) \
           ",\"score\":" next_random(1000) "." next_random(1000) ",\"tags\":[" tags "],\"body\":\""
    tail = "\"}}"
    need = bytes - length(head) - length(tail)
    if (need > length(text) - 1) { print "bytes must be at most " (length(text) + 100) > "/dev/stderr"; exit 1 }
    body = substr(text, 1 + next_random(length(text) - need), need)
    if (mode == "body") printf "%s%s%s", head, body, tail
    else printf "{\"put\":\"id:bench:article::%s%d\",%s%s%s\n", prefix, n, substr(head, 2), body, tail
  }
}
