// Function words that carry no topic: dropped from index terms, keywords and tags.

export const EN_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before ' +
    'being below between both but by can cannot could did do does doing don down during each ' +
    'few for from further had has have having he her here hers herself him himself his how i ' +
    'if in into is isn it its itself just let me more most my myself no nor not now of off on ' +
    'once only or other ought our ours ourselves out over own same she should so some such than ' +
    'that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would ' +
    'you your yours yourself yourselves also get got gets like just really okay ok yeah oh um uh ' +
    "s t ll re ve d m i'm it's that's don't can't won't we're you're they're here's there's " +
    'video videos one two'
  ).split(/\s+/),
);

/** Japanese particles, auxiliaries and very common function words as Intl.Segmenter cuts them. */
export const JA_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'これ それ あれ この その あの ここ そこ あそこ こちら どこ だれ なに なん 何 ' +
    'です でし ます まし ません ある あり いる い する し した して され れる られ ' +
    'こと もの ため よう とき ところ など から まで より ので のに けど けれど でも しかし ' +
    'そして また および または について による により として という といった ' +
    'ない なく なっ なる なり いう いっ 私 僕 わたし 今日 さん ちゃん くん 的'
  ).split(/\s+/),
);
