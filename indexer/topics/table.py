"""The model-convention topics as data: names, model article numbers, title patterns,
content keywords with weights, and the words of the treaty register.

Every pattern is a regex written in lower case (outside escapes such as ``\\S``), matched
case-insensitively; it runs on the lower-cased text (`indexer.topics.prefilter`), where its
lower-case copy is the same pattern. Beside each pattern stand the literals its matches hold,
which the prefilter looks for before it runs the pattern (as a token extractor declares the
strings its regex needs). A *clause* is a string of literals separated by "|": every match of
the pattern holds (lower-cased) at least one of them. The first clause of a pattern is the
prefilter's (the longest literal every match holds; where the pattern has alternatives, one
literal for each); further clauses of a keyword are checked before it runs on a long text. A
clause that begins with "^" says more: every match begins with one of its literals, so the
keyword is tried only where one begins. `tests/test_topics.py` proves every declaration on
generated matches and on the real texts.
"""

from __future__ import annotations

#: A title or register pattern: (regex, its clause of literals).
Pattern = tuple[str, str]
#: A content keyword: (regex, weight, its clause of literals, further clauses...). Weight 3 = a
#: phrase (almost) only that article uses, 2 = typical of it, 1 = also common elsewhere.
Keyword = tuple[str, int, *tuple[str, ...]]

# key -> display names (OECD/UN model order; technical-services is the UN model's 12A).
TOPICS: dict[str, dict[str, str]] = {
    "persons-covered": {"en": "Persons covered", "pt": "Pessoas visadas", "sv": "Personer som omfattas av avtalet", "zh": "人的范围"},
    "taxes-covered": {"en": "Taxes covered", "pt": "Impostos visados", "sv": "Skatter som omfattas av avtalet", "zh": "税种范围"},
    "general-definitions": {"en": "General definitions", "pt": "Definições gerais", "sv": "Allmänna definitioner", "zh": "一般定义"},
    "resident": {"en": "Resident", "pt": "Residente", "sv": "Hemvist", "zh": "居民"},
    "permanent-establishment": {"en": "Permanent establishment", "pt": "Estabelecimento permanente", "sv": "Fast driftställe", "zh": "常设机构"},
    "immovable-property": {"en": "Income from immovable property", "pt": "Rendimentos de bens imóveis", "sv": "Inkomst av fast egendom", "zh": "不动产所得"},
    "business-profits": {"en": "Business profits", "pt": "Lucros das empresas", "sv": "Inkomst av rörelse", "zh": "营业利润"},
    "shipping": {"en": "Shipping and air transport", "pt": "Transporte marítimo e aéreo", "sv": "Sjöfart och luftfart", "zh": "海运和空运"},
    "associated-enterprises": {"en": "Associated enterprises", "pt": "Empresas associadas", "sv": "Företag med intressegemenskap", "zh": "联属企业"},
    "dividends": {"en": "Dividends", "pt": "Dividendos", "sv": "Utdelning", "zh": "股息"},
    "interest": {"en": "Interest", "pt": "Juros", "sv": "Ränta", "zh": "利息"},
    "royalties": {"en": "Royalties", "pt": "Royalties", "sv": "Royalty", "zh": "特许权使用费"},
    "technical-services": {"en": "Fees for technical services", "pt": "Remunerações por serviços técnicos", "sv": "Ersättning för tekniska tjänster", "zh": "技术服务费"},
    "capital-gains": {"en": "Capital gains", "pt": "Ganhos de capital", "sv": "Realisationsvinst", "zh": "财产收益"},
    "independent-services": {"en": "Independent personal services", "pt": "Serviços profissionais independentes", "sv": "Självständig yrkesutövning", "zh": "独立个人劳务"},
    "employment": {"en": "Income from employment", "pt": "Rendimentos de emprego", "sv": "Inkomst av anställning", "zh": "非独立个人劳务"},
    "directors-fees": {"en": "Directors' fees", "pt": "Remunerações de direção", "sv": "Styrelsearvoden", "zh": "董事费"},
    "artistes-sportspersons": {"en": "Entertainers and sportspersons", "pt": "Artistas e desportistas", "sv": "Artister och idrottsmän", "zh": "艺术家和运动员"},
    "pensions": {"en": "Pensions", "pt": "Pensões", "sv": "Pensioner", "zh": "退休金"},
    "government-service": {"en": "Government service", "pt": "Funções públicas", "sv": "Offentlig tjänst", "zh": "政府服务"},
    "teachers": {"en": "Teachers and researchers", "pt": "Professores e pesquisadores", "sv": "Lärare och forskare", "zh": "教师和研究人员"},
    "students": {"en": "Students", "pt": "Estudantes", "sv": "Studerande", "zh": "学生"},
    "other-income": {"en": "Other income", "pt": "Outros rendimentos", "sv": "Annan inkomst", "zh": "其他所得"},
    "capital": {"en": "Capital", "pt": "Patrimônio", "sv": "Förmögenhet", "zh": "财产"},
    "elimination-double-taxation": {"en": "Elimination of double taxation", "pt": "Eliminação da dupla tributação", "sv": "Undanröjande av dubbelbeskattning", "zh": "消除双重征税方法"},
    "non-discrimination": {"en": "Non-discrimination", "pt": "Não discriminação", "sv": "Förbud mot diskriminering", "zh": "无差别待遇"},
    "mutual-agreement": {"en": "Mutual agreement procedure", "pt": "Procedimento amigável", "sv": "Förfarandet vid ömsesidig överenskommelse", "zh": "协商程序"},
    "exchange-of-information": {"en": "Exchange of information", "pt": "Troca de informações", "sv": "Utbyte av upplysningar", "zh": "情报交换"},
    "assistance-collection": {"en": "Assistance in the collection of taxes", "pt": "Assistência na cobrança de tributos", "sv": "Handräckning vid indrivning av skatter", "zh": "税收征收协助"},
    "diplomatic-agents": {"en": "Members of diplomatic missions and consular posts", "pt": "Membros de missões diplomáticas e postos consulares", "sv": "Medlemmar av diplomatisk beskickning och konsulat", "zh": "外交代表和领事官员"},
    "entitlement-to-benefits": {"en": "Entitlement to benefits", "pt": "Direito a benefícios", "sv": "Rätt till förmåner", "zh": "享受协定优惠的资格"},
    "entry-into-force": {"en": "Entry into force", "pt": "Entrada em vigor", "sv": "Ikraftträdande", "zh": "生效"},
    "termination": {"en": "Termination", "pt": "Denúncia", "sv": "Upphörande", "zh": "终止"},
}  # fmt: skip

#: Rank of each topic in model order (0-based), used to keep recovered articles in order.
RANK: dict[str, int] = {key: i for i, key in enumerate(TOPICS)}

#: The usual article number of each topic in the OECD (UN for technical services, 12A) model.
MODEL_NUMBER: dict[str, int] = {
    "persons-covered": 1, "taxes-covered": 2, "general-definitions": 3, "resident": 4,
    "permanent-establishment": 5, "immovable-property": 6, "business-profits": 7,
    "shipping": 8, "associated-enterprises": 9, "dividends": 10, "interest": 11,
    "royalties": 12, "technical-services": 12, "capital-gains": 13,
    "independent-services": 14, "employment": 15, "directors-fees": 16,
    "artistes-sportspersons": 17, "pensions": 18, "government-service": 19, "teachers": 20,
    "students": 20, "other-income": 21, "capital": 22, "elimination-double-taxation": 23,
    "non-discrimination": 24, "mutual-agreement": 25, "exchange-of-information": 26,
    "assistance-collection": 27, "diplomatic-agents": 28, "entitlement-to-benefits": 29,
    "entry-into-force": 30, "termination": 31,
}  # fmt: skip


# Patterns for printed article titles: topic -> patterns (any language; titles are short and
# the words rarely collide across languages). More specific topics come first where titles
# overlap ("Dependent personal services" before "Independent…", "非独立" before "独立").
TITLE_PATTERNS: dict[str, tuple[Pattern, ...]] = {
    "persons-covered": ((r"persons?\s+covered", "covered"), (r"personal\s+scope", "personal"), (r"pessoas\s+visadas", "pessoas"), (r"âmbito\s+subjetivo", "subjetivo"), (r"personer\s+(som\s+)?omfatta", "personer"), (r"人的范围", "人的范围")),
    "taxes-covered": ((r"taxes\s+covered", "covered"), (r"(tributos|impostos)\s+visados", "tributos|impostos"), (r"skatter\s+som\s+omfatta", "skatter"), (r"税种范围", "税种范围")),
    "general-definitions": ((r"general\s+definitions?", "definition"), (r"definiç(ões|ão)\s+gera(is|l)", "definiç"), (r"allmänna\s+definitioner", "definitioner"), (r"一般定义", "一般定义")),
    "resident": ((r"^\s*residen(t|ce|te)\b", "residen"), (r"fiscal\s+domicile", "domicile"), (r"^\s*hemvist", "hemvist"), (r"^\s*居民", "居民")),
    "permanent-establishment": ((r"permanent\s+establi", "permanent"), (r"estabelecimento\s+(permanente|estável)", "estabelecimento"), (r"fast\s+driftställe", "driftställe"), (r"常设机构", "常设机构")),
    "immovable-property": ((r"immovable", "immovable"), (r"real\s+property", "property"), (r"bens\s+imóveis|imobiliári", "imóveis|imobiliári"), (r"fast\s+egendom", "egendom"), (r"不动产", "不动产")),
    "business-profits": ((r"business\s+profits", "business"), (r"lucros\s+das\s+empresas", "empresas"), (r"inkomst\s+av\s+rörelse|rörelseinkomst", "inkomst"), (r"营业利润", "营业利润")),
    "shipping": ((r"shipping", "shipping"), (r"air\s+transport", "transport"), (r"transporte\s+marítimo|navegação", "transporte|navegação"), (r"sjöfart|luftfart", "sjöfart|luftfart"), (r"海运|空运", "海运|空运")),
    "associated-enterprises": ((r"associated\s+enterprises?", "associated"), (r"empresas\s+associadas", "associadas"), (r"intressegemenskap", "intressegemenskap"), (r"联属企业|关联企业", "联属企业|关联企业")),
    "dividends": ((r"dividend", "dividend"), (r"utdelning", "utdelning"), (r"股息", "股息")),
    "interest": ((r"^\s*interest\b", "interest"), (r"^\s*juros", "juros"), (r"^\s*ränta", "ränta"), (r"^\s*利息", "利息")),
    "royalties": ((r"royalt", "royalt"), (r"特许权使用费", "特许权使用费")),
    "technical-services": ((r"technical\s+services", "technical"), (r"serviços\s+técnicos", "serviços"), (r"tekniska\s+tjänster", "tekniska"), (r"技术服务", "技术服务")),
    "capital-gains": ((r"capital\s+gains?|gains\s+from\s+the\s+alienation", "capital|alienation"), (r"ganhos\s+de\s+capital", "capital"), (r"realisationsvinst|kapitalvinst", "realisationsvinst|kapitalvinst"), (r"财产收益|资本利得", "财产收益|资本利得")),
    "employment": ((r"\bdependent\s+personal", "dependent"), (r"^(?!.*\bindependent).*employment", "employment"), (r"non-independent", "non-independent"), (r"rendimentos?\s+de\s+emprego|trabalho\s+dependente|serviços\s+dependentes", "rendimento|dependente"), (r"anställning", "anställning"), (r"非独立个人劳务|受雇所得", "非独立个人劳务|受雇所得")),
    "independent-services": ((r"independent\s+(personal\s+)?services?", "independent"), (r"serviços\s+(profissionais\s+)?independentes|profiss(ões|ão)\s+independente", "independente"), (r"självständig\s+yrkes|fritt\s+yrke", "självständig|fritt"), (r"独立个人劳务", "独立个人劳务")),
    "directors-fees": ((r"directors", "directors"), (r"remunerações\s+de\s+direção|percentagens\s+de\s+membros|diretores", "remunerações|percentagens|diretores"), (r"styrelse", "styrelse"), (r"董事", "董事")),
    "artistes-sportspersons": ((r"artist|entertainer|athlete|sportsm|sportsperson", "artist|entertainer|athlete|sportsm|sportsperson"), (r"desportista|atleta|artistas", "desportista|atleta|artistas"), (r"idrott|artister", "idrott|artister"), (r"艺术家|运动员|表演家", "艺术家|运动员|表演家")),
    "government-service": ((r"government(al)?\s+service|public\s+service", "government|service"), (r"funç(ões|ão)\s+(públicas?|governamenta)", "pública|governamenta"), (r"offentlig\s+tjänst|allmän\s+tjänst", "offentlig|allmän"), (r"政府服务|政府职务", "政府服务|政府职务")),
    "pensions": ((r"pension|annuit", "pension|annuit"), (r"pensões|aposentadoria", "pensões|aposentadoria"), (r"pension|livränt", "pension|livränt"), (r"退休金|养老金", "退休金|养老金")),
    "teachers": ((r"teachers?|professors?|researchers?", "teacher|professor|researcher"), (r"professores|pesquisadores", "professores|pesquisadores"), (r"lärare|forskare", "lärare|forskare"), (r"教师|研究人员", "教师|研究人员")),
    "students": ((r"students?|apprentices?|trainees?", "student|apprentice|trainee"), (r"estudantes|aprendizes", "estudantes|aprendizes"), (r"studerande|studenter", "studerande|studenter"), (r"学生|实习人员", "学生|实习人员")),
    "other-income": ((r"other\s+income|income\s+not\s+expressly", "income|expressly"), (r"outros\s+rendimentos|rendimentos\s+não\s+expressamente", "rendimentos|expressamente"), (r"annan\s+inkomst|övriga\s+inkomster|inkomst\s+som\s+inte", "inkomst"), (r"其[它他]所得", "所得")),
    "elimination-double-taxation": ((r"elimination\s+of\s+double|avoidance\s+of\s+double|relief\s+from\s+double|methods\s+for\s+the\s+elimination", "elimination|avoidance|relief"), (r"eliminação\s+da\s+dupla|métodos\s+para\s+eliminar", "eliminação|eliminar"), (r"undanröjande\s+av\s+dubbel|undvikande\s+av\s+dubbel|metoder\s+för", "undanröjande|undvikande|metoder"), (r"消除双重征税", "消除双重征税")),
    "non-discrimination": ((r"non[-\s]?discrimination", "discrimination"), (r"não[-\s]discriminação", "discriminação"), (r"diskriminering", "diskriminering"), (r"无差别待遇|非歧视", "无差别待遇|非歧视")),
    "mutual-agreement": ((r"mutual\s+agreement", "agreement"), (r"procedimento\s+amigável|acordo\s+mútuo", "procedimento|acordo"), (r"ömsesidig\s+överenskommelse", "överenskommelse"), (r"协商程序|相互协商", "协商程序|相互协商")),
    "exchange-of-information": ((r"exchange\s+of\s+information", "information"), (r"(troca|intercâmbio)\s+de\s+informações", "informações"), (r"utbyte\s+av\s+(upplysningar|information)", "upplysningar|information"), (r"情报交换|信息交换", "情报交换|信息交换")),
    "assistance-collection": ((r"assistance\s+in\s+(the\s+)?collection|collection\s+of\s+taxes", "assistance|collection"), (r"assistência\s+na\s+cobrança", "assistência"), (r"handräckning|indrivning", "handräckning|indrivning"), (r"税收征收协助", "税收征收协助")),
    "diplomatic-agents": ((r"diplomatic|consular", "diplomatic|consular"), (r"diplomátic|consulares", "diplomátic|consulares"), (r"diplomatisk|konsul", "diplomatisk|konsul"), (r"外交|领事", "外交|领事")),
    "entitlement-to-benefits": ((r"entitlement\s+to\s+benefits|limitation\s+(on|of)\s+benefits|prevention\s+of\s+treaty\s+abuse", "entitlement|limitation|prevention"), (r"direito\s+a\s+benefícios|limitação\s+de\s+benefícios", "benefícios"), (r"rätt\s+till\s+förmåner|begränsning\s+av\s+förmåner", "förmåner|begränsning"), (r"享受协定优惠|利益限制", "享受协定优惠|利益限制")),
    "capital": ((r"^\s*capital\s*$", "capital"), (r"^\s*patrimônio\s*$|^\s*capital\s*$", "patrimônio|capital"), (r"^\s*förmögenhet\s*$", "förmögenhet"), (r"^\s*财产\s*$", "财产")),
    "entry-into-force": ((r"entry\s+into\s+force|coming\s+into\s+force", "entry|coming"), (r"entrada\s+em\s+vigor|vigência", "entrada|vigência"), (r"ikraftträdande|träder\s+i\s+kraft", "ikraftträdande|träder"), (r"生效", "生效")),
    "termination": ((r"terminat", "terminat"), (r"denúncia|término|terminação", "denúncia|término|terminação"), (r"upphörande|uppsägning", "upphörande|uppsägning"), (r"终止", "终止")),
}  # fmt: skip

# Content keywords per topic and language.
KEYWORDS: dict[str, dict[str, tuple[Keyword, ...]]] = {
    "persons-covered": {
        "en": ((r"shall apply to persons", 3, "shall apply to persons"), (r"persons\s+who\s+are\s+residents\s+of\s+one\s+or\s+both", 3, "residents", "persons", "both"), (r"persons\s+resid\w*\s+in\s+one\s+or\s+both", 3, "persons", "resid", "both"), (r"fiscally\s+transparent", 1, "transparent", "fiscally")),
        "pt": ((r"aplicar\w*\s+(às|as)\s+pessoas", 3, "aplicar", "pessoas"), (r"residentes\s+de\s+um\s+ou\s+de\s+ambos", 3, "residentes", "ambos"), (r"fiscalmente\s+transparente", 1, "transparente", "fiscalmente")),
        "sv": ((r"tillämpas\s+på\s+personer", 3, "tillämpas", "personer"), (r"i\s+en\s+av\s+eller\s+båda", 2, "eller", "båda"), (r"skattemässigt\s+transparent", 1, "skattemässigt", "transparent")),
        "zh": ((r"适用于.{0,15}居民的人", 3, "居民的人"), (r"同时为双方居民的人", 2, "同时为双方居民的人")),
    },
    "taxes-covered": {
        "en": ((r"taxes\s+on\s+income", 1, "income", "taxes"), (r"(existing|current)\s+taxes", 3, "^existing|current", "taxes"), (r"identical\s+or\s+substantially\s+similar\s+taxes", 3, "substantially", "identical", "similar", "taxes"), (r"taxes\s+to\s+which\s+th\w+\s+(convention|agreement)\s+shall\s+apply", 3, "convention|agreement", "taxes", "which", "shall", "apply"), (r"income\s+tax\b", 1, "income")),
        "pt": ((r"(tributos|impostos)\s+atuais", 3, "^tributos|impostos", "atuais"), (r"idênticos\s+ou\s+substancialmente", 3, "substancialmente", "idênticos"), (r"imposto\s+(federal\s+)?sobre\s+a\s+renda", 1, "imposto", "sobre", "renda"), (r"tributos\s+sobre\s+a\s+renda", 1, "tributos", "sobre", "renda"), (r"impostos?\s+aos\s+quais\s+se\s+aplica", 2, "imposto", "aplica", "quais")),
        "sv": ((r"skatter\s+som\s+avses", 3, "skatter", "avses"), (r"(nu\s+utgående|nuvarande)\s+skatter", 3, "utgående|nuvarande", "skatter"), (r"i\s+huvudsak\s+likartad", 3, "huvudsak", "likartad"), (r"inkomstskatt", 1, "inkomstskatt")),
        "zh": ((r"现行税种", 3, "现行税种"), (r"实质相似的税收", 3, "实质相似的税收"), (r"所得税", 1, "所得税")),
    },
    "general-definitions": {
        "en": ((r"the\s+terms?\s+[\"“]", 1, "term"), (r"unless\s+the\s+context\s+otherwise\s+requires", 3, "otherwise", "requires", "context", "unless"), (r"competent\s+authority[\"”]?\s+means", 3, "competent", "authority", "means"), (r"international\s+traffic[\"”]?\s+means", 3, "international", "traffic", "means"), (r"[\"”]\s+means\b", 1, "means")),
        "pt": ((r"o\s+termo\s+[\"“]", 1, "termo"), (r"a\s+expressão\s+[\"“]", 1, "expressão"), (r"a\s+não\s+ser\s+que\s+o\s+contexto", 3, "contexto"), (r"autoridade\s+competente[\"”]?\s+significa", 3, "autoridade", "competente", "significa"), (r"tráfego\s+internacional[\"”]?\s+significa", 3, "internacional", "significa", "tráfego")),
        "sv": ((r"(där|om)\s+icke\s+sammanhanget", 3, "sammanhanget", "icke"), (r"om\s+inte\s+sammanhanget", 3, "sammanhanget", "inte"), (r"förstås\s+med", 1, "förstås"), (r"uttrycket\s+[»\"“]", 1, "uttrycket"), (r"behörig\s+myndighet", 1, "myndighet", "behörig")),
        "zh": ((r"一语是指", 1, "一语是指"), (r"除上下文另有解释", 3, "除上下文另有解释"), (r"主管当局”一语", 3, "主管当局”一语"), (r"国际运输”一语", 3, "国际运输”一语")),
    },
    "resident": {
        "en": ((r"permanent\s+home", 3, "permanent", "home"), (r"vital\s+interests", 3, "interests", "vital"), (r"habitual\s+abode", 3, "habitual", "abode"), (r"resident\s+of\s+both\s+contracting\s+states", 2, "contracting", "resident", "states", "both"), (r"place\s+of\s+(effective\s+)?management", 1, "management", "place"), (r"by\s+reason\s+of\s+(his|her|its)\S*\s+domicile", 3, "domicile", "reason")),
        "pt": ((r"habitação\s+permanente", 3, "permanente", "habitação"), (r"interesses\s+vitais", 3, "interesses", "vitais"), (r"viv\w+\s+habitualmente", 3, "habitualmente"), (r"residente\s+de\s+ambos", 2, "residente", "ambos"), (r"em\s+razão\s+de\s+seu\s+domicílio", 3, "domicílio", "razão")),
        "sv": ((r"stadigvarande\s+bostad", 3, "stadigvarande", "bostad"), (r"levnadsintressen", 3, "levnadsintressen"), (r"vanligen\s+vistas", 3, "vanligen", "vistas"), (r"hemvist\s+i\s+båda", 2, "hemvist", "båda"), (r"på\s+grund\s+av\s+domicil", 3, "domicil", "grund")),
        "zh": ((r"永久性住所", 3, "永久性住所"), (r"重要利益中心", 3, "重要利益中心"), (r"习惯性居处", 3, "习惯性居处"), (r"由于住所", 3, "由于住所")),
    },
    "permanent-establishment": {
        "en": ((r"fixed\s+place\s+of\s+business", 3, "business", "fixed", "place"), (r"building\s+site", 3, "building", "site"), (r"preparatory\s+or\s+auxiliary", 3, "preparatory", "auxiliary"), (r"permanent\s+establishment[\"”]?\s+(means|includes)", 3, "establishment", "permanent", "means|includes"), (r"independent\s+status", 2, "independent", "status"), (r"a\s+place\s+of\s+management", 2, "management", "place"), (r"a\s+branch", 1, "branch")),
        "pt": ((r"instalação\s+fixa\s+de\s+negócios", 3, "instalação", "negócios", "fixa"), (r"canteiro\s+de\s+obras", 3, "canteiro", "obras"), (r"preparatório\s+ou\s+auxiliar", 3, "preparatório", "auxiliar"), (r"estabelecimento\s+permanente[\"”]?\s+(significa|abrange)", 3, "estabelecimento", "permanente", "significa|abrange"), (r"agente\s+independente|estatuto\s+independente", 2, "independente", "^agente|estatuto"), (r"uma\s+filial", 1, "filial")),
        "sv": ((r"stadigvarande\s+plats\s+för\s+affärsverksamhet", 3, "affärsverksamhet", "stadigvarande", "plats"), (r"byggnads|anläggnings|monterings", 2, "^byggnads|anläggnings|monterings"), (r"förberedande\s+eller\s+biträdande", 3, "förberedande", "biträdande", "eller"), (r"fast\s+driftställe[»\"”]?\s+(förstås|åsyftas|innefattar|anses)", 3, "driftställe", "förstås|åsyftas|innefattar|anses", "fast"), (r"oberoende\s+ställning", 2, "oberoende", "ställning"), (r"plats\s+för\s+företagsledning", 2, "företagsledning", "plats"), (r"filial", 1, "filial")),
        "zh": ((r"固定营业场所", 3, "固定营业场所"), (r"建筑工地", 3, "建筑工地"), (r"准备性或辅助性", 3, "准备性或辅助性"), (r"常设机构”一语", 3, "常设机构”一语"), (r"独立代理人", 2, "独立代理人"), (r"管理场所", 2, "管理场所")),
    },
    "immovable-property": {
        "en": ((r"immovable\s+property", 2, "immovable", "property"), (r"real\s+property", 2, "property", "real"), (r"agriculture\s+or\s+forestry", 3, "agriculture", "forestry"), (r"usufruct", 2, "usufruct"), (r"mineral\s+deposits", 2, "deposits", "mineral")),
        "pt": ((r"bens\s+imóveis", 2, "imóveis", "bens"), (r"propriedade\s+imobiliária", 2, "propriedade", "imobiliária"), (r"agrícolas\s+ou\s+florestais", 3, "florestais", "agrícolas"), (r"usufruto", 2, "usufruto"), (r"jazidas\s+minerais", 2, "minerais", "jazidas")),
        "sv": ((r"fast\s+egendom", 2, "egendom", "fast"), (r"lantbruk\s+eller\s+skogsbruk", 3, "skogsbruk", "lantbruk", "eller"), (r"nyttjanderätt", 2, "nyttjanderätt"), (r"mineralförekomster|naturtillgångar", 2, "^mineralförekomster|naturtillgångar")),
        "zh": ((r"不动产", 2, "不动产"), (r"农业和林业|农业或林业", 3, "农业和林业|农业或林业"), (r"用益权", 2, "用益权")),
    },
    "business-profits": {
        "en": ((r"profits\s+of\s+an\s+enterprise", 3, "enterprise", "profits"), (r"attribut\w+\s+to\s+(that|the)\s+permanent\s+establishment", 2, "establishment", "permanent", "attribut"), (r"deductions?\s+(of\s+)?expenses", 2, "deduction", "expenses"), (r"mere\s+purchase", 3, "purchase", "mere"), (r"items\s+of\s+income\s+which\s+are\s+dealt\s+with\s+separately", 3, "separately", "income", "items", "which", "dealt", "with")),
        "pt": ((r"lucros\s+de\s+uma\s+empresa", 3, "empresa", "lucros"), (r"atribu\w+\s+(a\s+esse|ao)\s+estabelecimento\s+permanente", 2, "estabelecimento", "permanente", "atribu"), (r"deduzir\s+as\s+despesas", 2, "despesas", "deduzir"), (r"simples\s+compra", 3, "simples", "compra"), (r"tratados\s+separadamente", 3, "separadamente", "tratados")),
        "sv": ((r"inkomst\s+av\s+rörelse", 3, "inkomst", "rörelse"), (r"hänför\w*\s+till\s+det\s+fasta\s+driftstället", 2, "driftstället", "hänför", "fasta", "till"), (r"avdrag\s+för\s+kostnader", 2, "kostnader", "avdrag"), (r"endast\s+inköper", 3, "inköper", "endast")),
        "zh": ((r"企业的利润", 3, "企业的利润"), (r"归属于该常设机构", 2, "归属于该常设机构"), (r"扣除.{0,10}费用", 2, "扣除"), (r"采购货物或商品", 3, "采购货物或商品"), (r"单独规定的所得项目", 3, "单独规定的所得项目")),
    },
    "shipping": {
        "en": ((r"operation\s+of\s+ships", 3, "operation", "ships"), (r"ships,?\s+(boats,?\s+)?(or\s+)?aircraft", 2, "aircraft", "ships"), (r"international\s+traffic", 1, "international", "traffic"), (r"\bpool\b", 2, "^pool"), (r"containers", 1, "containers")),
        "pt": ((r"operação\s+de\s+navios", 3, "operação", "navios"), (r"navios\s+ou\s+aeronaves", 2, "aeronaves", "navios"), (r"tráfego\s+internacional", 1, "internacional", "tráfego"), (r"[\"“]pool[\"”]", 2, "pool"), (r"contêineres", 1, "contêineres")),
        "sv": ((r"fartyg\s+eller\s+luftfartyg", 3, "luftfartyg", "fartyg", "eller"), (r"sjöfart|luftfart", 2, "^sjöfart|luftfart"), (r"internationell\s+trafik", 1, "internationell", "trafik"), (r"pool|konsortium", 2, "^pool|konsortium")),
        "zh": ((r"船舶或飞机", 3, "船舶或飞机"), (r"国际运输", 1, "国际运输"), (r"合伙经营|联合经营|国际经营机构", 2, "^合伙经营|联合经营|国际经营机构")),
    },
    "associated-enterprises": {
        "en": ((r"management,\s+control\s+or\s+capital", 3, "management,", "control", "capital"), (r"conditions\s+are\s+made\s+or\s+imposed", 3, "conditions", "imposed", "made"), (r"associated\s+enterprises?", 2, "associated", "enterprise"), (r"but\s+for\s+those\s+conditions", 3, "conditions", "those")),
        "pt": ((r"direção,\s+(no\s+)?controle\s+ou\s+(no\s+)?capital", 3, "direção,", "controle", "capital"), (r"condições\s+forem\s+estabelecidas\s+ou\s+impostas", 3, "estabelecidas", "condições", "impostas", "forem"), (r"empresas\s+associadas", 2, "associadas", "empresas"), (r"não\s+fossem\s+essas\s+condições", 3, "condições", "fossem", "essas")),
        "sv": ((r"ledning,\s+kontroll\s+eller\s+kapital", 3, "ledning,", "kontroll", "kapital", "eller"), (r"villkor\s+avtalas\s+eller\s+föreskrivs", 3, "föreskrivs", "villkor", "avtalas", "eller"), (r"intressegemenskap", 2, "intressegemenskap"), (r"ledningen\s+eller\s+övervakningen", 3, "övervakningen", "ledningen", "eller")),
        "zh": ((r"管理、控制或资本", 3, "管理、控制或资本"), (r"独立企业之间", 3, "独立企业之间"), (r"联属企业", 2, "联属企业")),
    },
    "dividends": {
        "en": ((r"dividends?", 2, "dividend"), (r"jouissance|founders.\s+shares", 2, "^jouissance|founders")),
        "pt": ((r"dividendos?", 2, "dividendo"), (r"partes\s+de\s+fundador", 2, "fundador", "partes")),
        "sv": ((r"utdelning", 2, "utdelning"), (r"aktier|andelar", 1, "aktier|andelar")),
        "zh": ((r"股息", 2, "股息"), (r"股份", 1, "股份")),
    },
    "interest": {
        "en": ((r"\binterest\b", 2, "^interest"), (r"debt-?claims", 2, "claims", "debt")),
        "pt": ((r"\bjuros\b", 2, "^juros"), (r"créditos\s+de\s+qualquer\s+natureza", 2, "créditos", "qualquer", "natureza")),
        "sv": ((r"\brän\w*", 2, "^rän"), (r"fordringar\s+av\s+varje\s+slag", 2, "fordringar", "varje", "slag")),
        "zh": ((r"利息", 2, "利息"), (r"债权", 2, "债权")),
    },
    "royalties": {
        "en": ((r"royalt\w+", 2, "royalt"), (r"copyright", 2, "copyright"), (r"patent", 1, "patent"), (r"trade\s*mark", 1, "trade", "mark")),
        "pt": ((r"royalt\w+", 2, "royalt"), (r"direitos?\s+de\s+autor", 2, "direito", "autor"), (r"patentes?", 1, "patente"), (r"marcas?\s+de\s+(indústria|comércio)", 1, "indústria|comércio", "marca")),
        "sv": ((r"royalty\w*", 2, "royalty"), (r"upphovsrätt", 2, "upphovsrätt"), (r"patent", 1, "patent"), (r"varumärke|mönster", 1, "^varumärke|mönster")),
        "zh": ((r"特许权使用费", 2, "特许权使用费"), (r"版权|专利|商标", 1, "版权|专利|商标")),
    },
    "technical-services": {
        "en": ((r"technical\s+services", 3, "technical", "services"), (r"managerial,\s+technical\s+or\s+consultancy", 3, "managerial,", "consultancy", "technical")),
        "pt": ((r"serviços\s+técnicos", 3, "serviços", "técnicos"), (r"natureza\s+gerencial,\s+técnica", 3, "gerencial,", "natureza", "técnica")),
        "sv": ((r"tekniska\s+tjänster", 3, "tekniska", "tjänster"),),
        "zh": ((r"技术服务费", 3, "技术服务费"), (r"管理、技术或咨询", 3, "管理、技术或咨询")),
    },
    "capital-gains": {
        "en": ((r"\bgains\b", 2, "^gains"), (r"alienation", 2, "alienation")),
        "pt": ((r"\bganhos\b", 2, "^ganhos"), (r"alienação", 2, "alienação")),
        "sv": ((r"realisationsvinst|kapitalvinst", 3, "^realisationsvinst|kapitalvinst"), (r"avyttring|överlåtelse", 2, "^avyttring|överlåtelse"), (r"\bvinst\b", 1, "^vinst")),
        "zh": ((r"收益", 2, "收益"), (r"转让", 2, "转让")),
    },
    "independent-services": {
        "en": ((r"professional\s+services", 3, "professional", "services"), (r"independent\s+character", 3, "independent", "character"), (r"fixed\s+base", 2, "fixed", "base"), (r"independent\s+(personal\s+)?services", 2, "independent", "services")),
        "pt": ((r"serviços\s+profissionais", 3, "profissionais", "serviços"), (r"caráter\s+independente", 3, "independente", "caráter"), (r"instalação\s+fixa(?!\s+de\s+negócios)", 1, "instalação", "fixa"), (r"atividades\s+independentes", 2, "independentes", "atividades")),
        "sv": ((r"fritt\s+yrke", 3, "fritt", "yrke"), (r"självständig\s+verksamhet|självständig\s+yrkes", 3, "självständig", "verksamhet|yrkes"), (r"stadigvarande\s+anordning", 2, "stadigvarande", "anordning")),
        "zh": ((r"专业性劳务", 3, "专业性劳务"), (r"独立性活动|独立个人劳务", 3, "独立性活动|独立个人劳务"), (r"固定基地", 2, "固定基地")),
    },
    "employment": {
        "en": ((r"salaries,\s+wages", 2, "salaries,", "wages"), (r"employment", 1, "employment"), (r"183\s+days", 3, "days"), (r"employer", 2, "employer")),
        "pt": ((r"salários,\s+ordenados", 2, "salários,", "ordenados"), (r"\bemprego\b", 1, "^emprego"), (r"183\s+dias", 3, "dias"), (r"empregador", 2, "empregador")),
        "sv": ((r"\blön\w*", 1, "^lön"), (r"anställning|tjänst", 1, "^anställning|tjänst"), (r"183\s+dagar", 3, "dagar"), (r"arbetsgivare", 2, "arbetsgivare")),
        "zh": ((r"工资、薪金", 2, "工资、薪金"), (r"受雇", 1, "受雇"), (r"一百八十三天|183天", 3, "^一百八十三天|183天"), (r"雇主", 2, "雇主")),
    },
    "directors-fees": {
        "en": ((r"directors.?\s+fees", 3, "directors", "fees"), (r"board\s+of\s+directors", 3, "directors", "board")),
        "pt": ((r"remunerações\s+de\s+direção", 3, "remunerações", "direção"), (r"membro\s+da\s+diretoria|conselho\s+de\s+administração", 3, "diretoria|administração", "^membro|conselho")),
        "sv": ((r"styrelsearvode", 3, "styrelsearvode"), (r"styrelse", 2, "styrelse")),
        "zh": ((r"董事费", 3, "董事费"), (r"董事会", 3, "董事会")),
    },
    "artistes-sportspersons": {
        "en": ((r"entertainer", 3, "entertainer"), (r"athlete|sportsm[ae]n|sportsperson", 3, "^athlete|sportsm|sportsperson"), (r"musician|theatre|motion\s+picture", 2, "musician|theatre|picture", "^musician|theatre|motion"), (r"\bartist", 1, "^artist")),
        "pt": ((r"profissiona(l|is)\s+de\s+espetáculos", 3, "profissiona", "espetáculos"), (r"desportistas?|atletas?", 3, "^desportista|atleta"), (r"músicos?|teatro|cinema", 2, "^músico|teatro|cinema"), (r"artistas?", 1, "artista")),
        "sv": ((r"artist\w*", 3, "artist"), (r"idrottsm\w+|idrottsutövare", 3, "idrottsm|idrottsutövare"), (r"musiker|skådespelare", 2, "^musiker|skådespelare")),
        "zh": ((r"表演家|艺术家", 3, "^表演家|艺术家"), (r"运动员", 3, "运动员"), (r"戏剧|电影|音乐家", 2, "戏剧|电影|音乐家")),
    },
    "pensions": {
        "en": ((r"pensions?", 2, "pension"), (r"annuit", 2, "annuit"), (r"social\s+security", 2, "security", "social"), (r"past\s+employment", 2, "employment", "past")),
        "pt": ((r"pensões|pensão", 2, "pensões|pensão"), (r"anuidades?", 2, "anuidade"), (r"previdência|seguridade\s+social", 2, "^previdência|seguridade"), (r"emprego\s+anterior", 2, "anterior", "emprego")),
        "sv": ((r"pension\w*", 2, "pension"), (r"livränt\w*", 2, "livränt"), (r"socialförsäkring", 2, "socialförsäkring"), (r"tidigare\s+anställning|tidigare\s+tjänst", 2, "tidigare", "anställning|tjänst")),
        "zh": ((r"退休金|养老金", 2, "^退休金|养老金"), (r"社会保险", 2, "社会保险"), (r"以前的雇佣", 2, "以前的雇佣")),
    },
    "government-service": {
        "en": ((r"(political\s+)?subdivision\s+or\s+a\s+local\s+authority\s+thereof\s+to\s+an\s+individual", 3, "subdivision", "individual", "authority", "thereof", "local"), (r"services\s+rendered\s+to\s+that\s+(state|contracting)", 3, "services", "rendered", "state|contracting", "that"), (r"governmental\s+functions", 2, "governmental", "functions"), (r"paid\s+by\s+the\s+government", 3, "government", "paid")),
        "pt": ((r"pagas?\s+por\s+um\s+estado\s+contratante,?\s+ou\s+por\s+uma\s+de\s+suas\s+subdivisões", 3, "contratante", "subdivisões", "estado", "paga", "suas"), (r"serviços\s+prestados\s+a\s+esse\s+estado", 3, "prestados", "serviços", "estado", "esse"), (r"funções\s+(públicas|governamentais)", 2, "públicas|governamentais", "funções"), (r"pag[oa]s?\s+pelo\s+gov[eê]rno", 3, "pelo")),
        "sv": ((r"offentlig\s+tjänst|allmän\s+tjänst", 3, "^offentlig|allmän"), (r"tjänst\s+hos\s+(denna\s+)?stat", 3, "tjänst", "stat"), (r"offentligrättslig", 2, "offentligrättslig"), (r"(?:betala[sd]|utbetala[sd])\s+av\s+(?:\w+\s+){0,3}(?:regering|staten)", 3, "betala", "regering|staten", "^betala|utbetala"), (r"statens\s+tjänst", 3, "statens", "tjänst")),
        "zh": ((r"政府、其行政区或地方当局", 3, "政府、其行政区或地方当局"), (r"提供服务的个人", 3, "提供服务的个人"), (r"政府职能", 2, "政府职能")),
    },
    "teachers": {
        "en": ((r"teach\w*", 2, "teach"), (r"professor", 2, "professor"), (r"research", 2, "research"), (r"university|college|school", 1, "^university|college|school")),
        "pt": ((r"\bensino\b|lecionar", 2, "^ensino|lecionar"), (r"professor", 2, "professor"), (r"pesquisas?", 2, "pesquisa"), (r"universidade|instituição\s+educacional|a\s+convite\s+do\s+governo", 1, "universidade|instituição|convite")),
        "sv": ((r"undervisning", 2, "undervisning"), (r"lärare|professor", 2, "^lärare|professor"), (r"forskning", 2, "forskning"), (r"universitet|högskola|skola", 1, "^universitet|högskola|skola")),
        "zh": ((r"教学|讲学", 2, "教学|讲学"), (r"教师|教授", 2, "教师|教授"), (r"研究", 2, "研究"), (r"大学|学院|学校", 1, "大学|学院|学校")),
    },
    "students": {
        "en": ((r"student", 3, "student"), (r"apprentice|trainee", 3, "^apprentice|trainee"), (r"maintenance,\s+education\s+or\s+training", 3, "maintenance,", "education", "training"), (r"scholarships?|grants", 1, "^scholarship|grants")),
        "pt": ((r"estudantes?", 3, "estudante"), (r"aprendiz|estagiário", 3, "^aprendiz|estagiário"), (r"manutenção,\s+educação\s+ou\s+treinamento", 3, "manutenção,", "treinamento", "educação"), (r"bolsas?\s+de\s+estudo", 1, "estudo", "bolsa")),
        "sv": ((r"studerande|student", 3, "studerande|student"), (r"lärling|praktikant|affärspraktikant", 3, "^lärling|praktikant|affärspraktikant"), (r"uppehälle,\s+utbildning", 3, "uppehälle,", "utbildning"), (r"stipendi\w+", 1, "stipendi")),
        "zh": ((r"学生", 3, "学生"), (r"学徒|实习", 3, "学徒|实习"), (r"生活、教育或培训", 3, "生活、教育或培训"), (r"奖学金|赠款", 1, "奖学金|赠款")),
    },
    "other-income": {
        "en": ((r"items\s+of\s+income\s+.{0,80}not\s+dealt\s+with", 3, "income", "items", "dealt", "with"), (r"not\s+expressly\s+(mentioned|dealt)", 3, "expressly", "mentioned|dealt"), (r"foregoing\s+articles", 2, "foregoing", "articles")),
        "pt": ((r"rendimentos\s+.{0,80}não\s+tratad\w+", 3, "rendimentos", "tratad"), (r"não\s+expressamente\s+mencionad\w+", 3, "expressamente", "mencionad"), (r"artigos\s+precedentes", 2, "precedentes", "artigos"), (r"modalidades\s+de\s+rendimentos", 2, "modalidades", "rendimentos")),
        "sv": ((r"inkomst\w*\s+.{0,80}som\s+(icke|inte)\s+behandla", 3, "behandla", "inkomst", "icke|inte"), (r"föregående\s+artiklar", 2, "föregående", "artiklar")),
        "zh": ((r"未作规定的", 3, "未作规定的"), (r"上述各条", 2, "上述各条"), (r"各项所得", 2, "各项所得")),
    },
    "capital": {
        "en": ((r"capital\s+represented\s+by", 3, "represented", "capital"), (r"taxes\s+on\s+capital\s+are\s+imposed", 3, "capital", "imposed", "taxes"), (r"elements\s+of\s+capital", 3, "elements", "capital")),
        "pt": ((r"patrimônio\s+constituído|capital\s+constituído", 3, "constituído", "^patrimônio|capital"), (r"elementos\s+do\s+patrimônio", 3, "patrimônio", "elementos")),
        "sv": ((r"förmögenhet\s+som\s+utgöres|förmögenhet\s+i\s+form", 3, "förmögenhet", "utgöres|form"), (r"skatt\s+på\s+förmögenhet", 3, "förmögenhet", "skatt"), (r"förmögenhetsbeskattning|beskattas\s+för\s+förmögenhet", 2, "förmögenhet", "^förmögenhetsbeskattning|beskattas")),
        "zh": ((r"财产.{0,6}征税", 2, "财产"),),
    },
    "elimination-double-taxation": {
        "en": ((r"double\s+taxation\s+shall\s+be\s+(avoided|eliminated|prevented)", 3, "taxation", "avoided|eliminated|prevented", "double", "shall"), (r"shall\s+allow\s+as\s+a\s+deduction", 3, "deduction", "shall", "allow"), (r"\bcredit\b", 1, "^credit"), (r"deduction\s+from\s+the\s+tax", 3, "deduction", "from"), (r"exempt\s+from\s+tax", 1, "exempt", "from"), (r"tax\s+sparing|tax\s+paid\s+in", 2, "sparing|paid")),
        "pt": ((r"dupla\s+tributação\s+será\s+(evitada|eliminada)", 3, "tributação", "evitada|eliminada", "dupla", "será"), (r"permitirá\s+que\s+seja\s+deduzido|admitirá\s+a\s+dedução", 3, "^permitirá|admitirá"), (r"\bdedução\b|deduzir", 1, "^dedução|deduzir"), (r"crédito", 1, "crédito"), (r"isent\w+\s+de\s+imposto", 2, "imposto", "isent")),
        "sv": ((r"undvikas\s+på\s+följande\s+sätt|undanröj\w+\s+dubbelbeskattning", 3, "följande|dubbelbeskattning"), (r"avräkn\w+|avräkna", 3, "avräkn"), (r"nedsättning|befria\w*", 1, "^nedsättning|befria"), (r"tillåta\s+avdrag", 3, "tillåta", "avdrag")),
        "zh": ((r"消除双重征税", 3, "消除双重征税"), (r"抵免", 3, "抵免"), (r"扣除", 1, "扣除"), (r"饶让", 3, "饶让")),
    },
    "non-discrimination": {
        "en": ((r"other\s+or\s+more\s+burdensome", 3, "burdensome", "other", "more"), (r"less\s+favourably|less\s+favorably", 3, "favourably|favorably", "less"), (r"personal\s+allowances", 2, "allowances", "personal"), (r"nationals\s+of\s+a\s+contracting\s+state\s+shall\s+not\s+be\s+subject", 3, "contracting", "nationals", "subject", "state", "shall")),
        "pt": ((r"mais\s+onerosa", 3, "onerosa", "mais"), (r"menos\s+favorável", 3, "favorável", "menos"), (r"deduções\s+pessoais|abatimentos", 2, "^deduções|abatimentos")),
        "sv": ((r"mera\s+tyngande|mer\s+betungande", 3, "tyngande|betungande"), (r"mindre\s+fördelaktig", 3, "fördelaktig", "mindre"), (r"personliga\s+avdrag", 2, "personliga", "avdrag")),
        "zh": ((r"更重|不应高于", 3, "更重|不应高于"), (r"个人扣除", 2, "个人扣除"), (r"无差别", 3, "无差别")),
    },
    "mutual-agreement": {
        "en": ((r"present\s+(his|her|its)\S*\s+case", 3, "present", "case"), (r"mutual\s+agreement", 2, "agreement", "mutual"), (r"shall\s+endeavour", 2, "endeavour", "shall"), (r"communicate\s+with\s+each\s+other\s+directly|communicate\s+directly", 2, "communicate", "directly")),
        "pt": ((r"submeter\s+o\s+seu\s+caso|apresentar\s+o\s+seu\s+caso", 3, "^submeter|apresentar"), (r"acordo\s+mútuo|procedimento\s+amigável", 2, "^acordo|procedimento"), (r"envidar\w*\s+esforços", 2, "esforços", "envidar"), (r"comunicar-se\s+diretamente", 2, "comunicar-se", "diretamente")),
        "sv": ((r"ömsesidig\s+överenskommelse", 2, "överenskommelse", "ömsesidig"), (r"framlägga\s+saken|hänskjuta", 3, "^framlägga|hänskjuta"), (r"söka\s+lösa", 2, "söka", "lösa"), (r"träda\s+i\s+direkt\s+förbindelse", 2, "förbindelse", "direkt", "träda")),
        "zh": ((r"协商", 2, "协商"), (r"提出申诉|申诉", 3, "申诉"), (r"设法", 2, "设法"), (r"相互直接联系", 2, "相互直接联系")),
    },
    "exchange-of-information": {
        "en": ((r"exchange\s+(such\s+)?information", 3, "information", "exchange"), (r"information\s+received", 2, "information", "received"), (r"\bsecret", 2, "^secret"), (r"\binformation\b", 1, "^information")),
        "pt": ((r"(trocarão|intercambiarão)\s+(entre\s+si\s+)?(as\s+)?informações", 3, "informações", "trocarão|intercambiarão", "^trocarão|intercambiarão"), (r"informações\s+recebidas", 2, "informações", "recebidas"), (r"sigilo\w*|secret", 2, "sigilo|secret"), (r"informaç\w+", 1, "informaç")),
        "sv": ((r"utbyta\s+(sådana\s+)?upplysningar", 3, "upplysningar", "utbyta"), (r"upplysningar", 2, "upplysningar"), (r"hemlig\w*", 2, "hemlig")),
        "zh": ((r"交换.{0,20}情报|情报交换", 3, "交换"), (r"情报", 2, "情报"), (r"保密|秘密", 2, "保密|秘密")),
    },
    "assistance-collection": {
        "en": ((r"collection\s+of\s+revenue\s+claims", 3, "collection", "revenue", "claims"), (r"revenue\s+claim", 3, "revenue", "claim"), (r"assistance\s+in\s+the\s+collection", 3, "assistance", "collection")),
        "pt": ((r"cobrança\s+de\s+créditos\s+tributários", 3, "tributários", "cobrança", "créditos"), (r"assistência\s+na\s+cobrança", 3, "assistência", "cobrança")),
        "sv": ((r"handräckning", 3, "handräckning"), (r"indrivning", 3, "indrivning")),
        "zh": ((r"征收协助|税收债权", 3, "^征收协助|税收债权"),),
    },
    "diplomatic-agents": {
        "en": ((r"diplomatic\s+missions?", 3, "diplomatic", "mission"), (r"consular", 3, "consular"), (r"fiscal\s+privileges", 3, "privileges", "fiscal")),
        "pt": ((r"missões\s+diplomáticas", 3, "diplomáticas", "missões"), (r"consulares", 3, "consulares"), (r"privilégios\s+fiscais", 3, "privilégios", "fiscais")),
        "sv": ((r"diplomatisk\w*", 3, "diplomatisk"), (r"konsul\w*", 3, "konsul"), (r"privilegier", 3, "privilegier")),
        "zh": ((r"外交代表", 3, "外交代表"), (r"领事", 3, "领事"), (r"税收特权", 3, "税收特权")),
    },
    "entitlement-to-benefits": {
        "en": ((r"qualified\s+person", 3, "qualified", "person"), (r"entitled\s+to\s+(a\s+|the\s+|any\s+)?benefits?", 2, "entitled", "benefit"), (r"(principal|main)\s+purposes?", 2, "purpose", "principal|main", "^principal|main"), (r"recognized\s+stock\s+exchange", 2, "recognized", "exchange", "stock"), (r"equivalent\s+beneficiar", 3, "equivalent", "beneficiar"), (r"offshore", 2, "offshore")),
        "pt": ((r"pessoa\s+qualificada", 3, "qualificada", "pessoa"), (r"direito\s+a\s+(um\s+)?benefício", 2, "benefício", "direito"), (r"principa(l|is)\s+propósitos?", 2, "propósito", "principa"), (r"bolsa\s+de\s+valores\s+reconhecida", 2, "reconhecida", "valores", "bolsa"), (r"beneficiário\s+equivalente", 3, "beneficiário", "equivalente")),
        "sv": ((r"kvalificerad\s+person", 3, "kvalificerad", "person"), (r"rätt\s+till\s+förmån", 2, "förmån", "rätt", "till"), (r"huvudsakliga\s+syfte", 2, "huvudsakliga", "syfte"), (r"erkänd\s+börs", 2, "erkänd", "börs")),
        "zh": ((r"合格的人|合格人员", 3, "合格的人|合格人员"), (r"享受.{0,10}优惠", 2, "享受"), (r"主要目的", 2, "主要目的"), (r"证券交易所", 2, "证券交易所")),
    },
    "entry-into-force": {
        "en": ((r"enter\s+into\s+force|entry\s+into\s+force", 3, "force", "enter|entry"), (r"ratif\w+", 2, "ratif"), (r"instruments\s+of\s+ratification", 3, "ratification", "instruments"), (r"shall\s+have\s+effect", 2, "effect", "shall", "have"), (r"completion\s+of\s+the\s+procedures", 3, "completion", "procedures")),
        "pt": ((r"entrar\w*\s+em\s+vigor|entrada\s+em\s+vigor", 3, "entrar|entrada", "vigor"), (r"ratifica\w+", 2, "ratifica"), (r"instrumentos\s+de\s+ratificação", 3, "instrumentos", "ratificação"), (r"procedimentos\s+exigidos", 3, "procedimentos", "exigidos")),
        "sv": ((r"träd\w*\s+i\s+kraft|ikraftträdande", 3, "kraft", "^träd|ikraftträdande"), (r"ratifi\w+", 2, "ratifi"), (r"ratifikationshandling\w*", 3, "ratifikationshandling"), (r"tillämpas\s+i\s+fråga\s+om", 1, "tillämpas", "fråga")),
        "zh": ((r"生效", 3, "生效"), (r"批准", 2, "批准"), (r"国内法律程序", 3, "国内法律程序")),
    },
    "termination": {
        "en": ((r"terminat\w+", 3, "terminat"), (r"notice\s+of\s+termination", 3, "termination", "notice"), (r"remain\s+in\s+force", 2, "remain", "force"), (r"cease\s+to\s+(have\s+effect|apply)", 3, "cease", "effect|apply")),
        "pt": ((r"denúncia|denunciar", 3, "denúncia|denunciar"), (r"permanecerá\s+em\s+vigor", 2, "permanecerá", "vigor"), (r"deixará\s+de\s+(ser\s+)?(aplicável|efetivo|vigorar)", 3, "deixará", "aplicável|efetivo|vigorar")),
        "sv": ((r"uppsäg\w+|säga\s+upp", 3, "^uppsäg|säga"), (r"förblir\s+i\s+kraft|skall\s+förbliva\s+i\s+kraft", 2, "förblir|förbliva", "^förblir|skall"), (r"upphör\w*\s+att\s+gälla", 3, "upphör", "gälla")),
        "zh": ((r"终止", 3, "终止"), (r"长期有效", 2, "长期有效")),
    },
}  # fmt: skip

# Words of the treaty register (operative language) and of other registers (first person,
# editorial and commercial notes). Used by `segment` to tell an editor's note or an
# advertisement after an excerpt from the treaty's own unnumbered sentences.
REGISTER: dict[str, dict[str, tuple[Pattern, ...]]] = {
    "treaty": {
        "en": ((r"contracting\s+states?", "contracting"), (r"\bshall\b", "shall"), (r"\bthis\s+(convention|agreement|article|paragraph)", "convention|agreement|article|paragraph"), (r"\bparagraphs?\s+\d", "paragraph"), (r"\bcompetent\s+authorit", "competent"), (r"\bresident\s+of", "resident")),
        "pt": ((r"estados?\s+contratantes?", "contratante"), (r"\b(será|serão|poderá|poderão|aplicar-se-á)\b", "será|serão|poderá|poderão|aplicar-se-á"), (r"\best[ae]\s+(convenção|acordo|artigo|parágrafo|número)", "convenção|acordo|artigo|parágrafo|número"), (r"\bparágrafos?\s+\d|\bn\.[oº]s?\s+\d", "parágrafo|n."), (r"autoridades?\s+competentes?", "autoridade"), (r"\bresidente\s+d", "residente")),
        "sv": ((r"avtalsslutande\s+stat", "avtalsslutande"), (r"\bskall\b|\bska\b|\bskola\b", "ska|skola"), (r"\bdetta\s+(avtal|artikel)", "detta"), (r"§\s*\d", "§"), (r"behörig\w*\s+myndighet", "myndighet"), (r"\bhemvist\b", "hemvist")),
        "zh": ((r"缔约国", "缔约国"), (r"本协定|本条|本款", "本协定|本条|本款"), (r"应当?", "应"), (r"主管当局", "主管当局"), (r"居民", "居民")),
    },
    "other": {
        "en": ((r"\b(we|our|ours|us)\b", "we|our|us"), (r"\b(unofficial|translation|translated|editorial|editor|note[sd]?|verified|reproduced)\b", "unofficial|translation|translated|editor|note|verified|reproduced"), (r"\b(quote|contact|call\s+us|e-?mail|www\.|https?:)", "quote|contact|call|mail|www.|http"), (r"\bworking\s+days?\b", "working")),
        "pt": ((r"\b(nós|nosso|nossa|nossos|nossas)\b", "nós|nosso|nossa"), (r"\b(tradução|traduzido|nota\s+do\s+editor|editorial)\b", "tradução|traduzido|editor"), (r"\b(orçamento|contacte|www\.|https?:)", "orçamento|contacte|www.|http")),
        "sv": ((r"\b(vi|vår|våra|oss)\b", "vi|vår|oss"), (r"\b(översättning|redaktionell|anmärkning)\b", "översättning|redaktionell|anmärkning"), (r"\b(offert|kontakta|www\.|https?:)", "offert|kontakta|www.|http")),
        "zh": ((r"我们|我司|本公司|本网", "我们|我司|本公司|本网"), (r"译文|编者|注：|注:", "译文|编者|注：|注:"), (r"联系|咨询热线|网址", "联系|咨询热线|网址")),
    },
}  # fmt: skip
