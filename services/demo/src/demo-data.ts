import type { CustomsItem } from "@etd/events";

/*
 * Reference tables for the demo-order generator: real airports, seaports, airlines, cruise
 * ships, hotels and places, so demo orders read like the ones staff process. Plain data only.
 */

export interface Airline {
  readonly name: string;
  readonly code: string;
  /** Where a connection is made when the airline is not from the origin country. */
  readonly hub?: { readonly country: string; readonly airport: string };
}

export interface NamePool {
  readonly male: readonly string[];
  readonly female: readonly string[];
  readonly last: readonly string[];
}

export interface Region {
  readonly state: string;
  readonly cities: readonly string[];
}

export interface ForeignCountry {
  readonly name: string;
  /** ISO 3166-1 alpha-2: citizenship_id and country_code. */
  readonly iso: string;
  readonly phoneCode: string;
  readonly phoneDigits: number;
  readonly currency: string;
  readonly airports: readonly string[];
  readonly seaports: readonly string[];
  readonly airlines: readonly Airline[];
  readonly regions: readonly Region[];
  readonly streets: readonly string[];
  readonly postcodeDigits: number;
  /** Passport numbers: a letter prefix and a number of digits. */
  readonly passport: { readonly prefix: string; readonly digits: number };
  readonly names: NamePool;
  readonly occupations?: readonly string[];
}

const PAL: Airline = { name: "Philippine Airlines", code: "PR" };
const CEBU_PACIFIC: Airline = { name: "Cebu Pacific", code: "5J" };
const AIRASIA_PH: Airline = { name: "Philippines AirAsia", code: "Z2" };
const EMIRATES: Airline = {
  name: "Emirates",
  code: "EK",
  hub: { country: "United Arab Emirates", airport: "Dubai International Airport" },
};
const QATAR: Airline = {
  name: "Qatar Airways",
  code: "QR",
  hub: { country: "Qatar", airport: "Hamad International Airport" },
};
const SINGAPORE_AIRLINES: Airline = {
  name: "Singapore Airlines",
  code: "SQ",
  hub: { country: "Singapore", airport: "Singapore Changi Airport" },
};
const CATHAY: Airline = {
  name: "Cathay Pacific",
  code: "CX",
  hub: { country: "Hong Kong", airport: "Hong Kong International Airport" },
};
const KOREAN_AIR: Airline = {
  name: "Korean Air",
  code: "KE",
  hub: { country: "South Korea", airport: "Incheon International Airport" },
};
const JAPAN_AIRLINES: Airline = {
  name: "Japan Airlines",
  code: "JL",
  hub: { country: "Japan", airport: "Narita International Airport" },
};
const EVA: Airline = {
  name: "EVA Air",
  code: "BR",
  hub: { country: "Taiwan", airport: "Taiwan Taoyuan International Airport" },
};

export const FOREIGN_COUNTRIES: readonly ForeignCountry[] = [
  {
    name: "United States",
    iso: "US",
    phoneCode: "1",
    phoneDigits: 10,
    currency: "USD",
    airports: [
      "Los Angeles International Airport",
      "San Francisco International Airport",
      "John F. Kennedy International Airport",
      "Daniel K. Inouye International Airport",
      "Seattle-Tacoma International Airport",
    ],
    seaports: [],
    airlines: [PAL, { name: "United Airlines", code: "UA" }, JAPAN_AIRLINES, KOREAN_AIR, EVA],
    regions: [
      { state: "California", cities: ["Los Angeles", "Daly City", "San Diego", "San Jose", "Vallejo"] },
      { state: "Nevada", cities: ["Las Vegas", "Henderson"] },
      { state: "Hawaii", cities: ["Honolulu", "Waipahu"] },
      { state: "New York", cities: ["Queens", "Brooklyn"] },
      { state: "Texas", cities: ["Houston", "Dallas"] },
      { state: "Illinois", cities: ["Chicago", "Skokie"] },
      { state: "Washington", cities: ["Seattle", "Tacoma"] },
      { state: "New Jersey", cities: ["Jersey City", "Bergenfield"] },
    ],
    streets: ["Skyline Blvd", "Mission St", "Maple Ave", "Oak Street", "Sunset Blvd", "Pine Road"],
    postcodeDigits: 5,
    passport: { prefix: "", digits: 9 },
    names: {
      male: ["James", "John", "Michael", "David", "Robert", "William", "Daniel", "Matthew", "Kevin"],
      female: ["Mary", "Jennifer", "Linda", "Sarah", "Jessica", "Emily", "Ashley", "Megan"],
      last: ["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson"],
    },
  },
  {
    name: "Canada",
    iso: "CA",
    phoneCode: "1",
    phoneDigits: 10,
    currency: "CAD",
    airports: ["Toronto Pearson International Airport", "Vancouver International Airport"],
    seaports: [],
    airlines: [PAL, { name: "Air Canada", code: "AC" }, CATHAY, EVA],
    regions: [
      { state: "Ontario", cities: ["Toronto", "Mississauga", "Brampton"] },
      { state: "British Columbia", cities: ["Vancouver", "Surrey"] },
      { state: "Alberta", cities: ["Calgary", "Edmonton"] },
      { state: "Manitoba", cities: ["Winnipeg"] },
    ],
    streets: ["Bathurst St", "Yonge St", "Kingsway", "Portage Ave", "Main Street"],
    postcodeDigits: 6,
    passport: { prefix: "AB", digits: 6 },
    names: {
      male: ["Liam", "Noah", "Ethan", "Lucas", "Benjamin", "Owen"],
      female: ["Olivia", "Emma", "Chloe", "Charlotte", "Ava"],
      last: ["Tremblay", "Roy", "MacDonald", "Campbell", "Martin", "Gagnon", "Wilson"],
    },
  },
  {
    name: "United Kingdom",
    iso: "GB",
    phoneCode: "44",
    phoneDigits: 10,
    currency: "GBP",
    airports: ["London Heathrow Airport", "Manchester Airport"],
    seaports: [],
    airlines: [EMIRATES, QATAR, SINGAPORE_AIRLINES, CATHAY],
    regions: [
      { state: "Greater London", cities: ["Croydon", "Camden", "Ealing"] },
      { state: "Greater Manchester", cities: ["Manchester", "Salford"] },
      { state: "West Midlands", cities: ["Birmingham", "Coventry"] },
    ],
    streets: ["High Street", "Station Road", "Church Lane", "Victoria Road"],
    postcodeDigits: 5,
    passport: { prefix: "", digits: 9 },
    names: {
      male: ["Oliver", "George", "Harry", "Jack", "Charlie", "Thomas"],
      female: ["Amelia", "Isla", "Ava", "Emily", "Sophie", "Grace"],
      last: ["Smith", "Jones", "Taylor", "Brown", "Evans", "Thomas", "Roberts"],
    },
  },
  {
    name: "Australia",
    iso: "AU",
    phoneCode: "61",
    phoneDigits: 9,
    currency: "AUD",
    airports: ["Sydney Kingsford Smith Airport", "Melbourne Airport", "Brisbane Airport"],
    seaports: [],
    airlines: [PAL, CEBU_PACIFIC, { name: "Qantas", code: "QF" }, { name: "Jetstar", code: "JQ" }],
    regions: [
      { state: "New South Wales", cities: ["Sydney", "Blacktown", "Parramatta"] },
      { state: "Victoria", cities: ["Melbourne", "Geelong"] },
      { state: "Queensland", cities: ["Brisbane", "Gold Coast"] },
    ],
    streets: ["George Street", "Collins Street", "Queen Street", "Church Street"],
    postcodeDigits: 4,
    passport: { prefix: "P", digits: 7 },
    names: {
      male: ["Jack", "Oliver", "William", "Lachlan", "Cooper", "Noah"],
      female: ["Charlotte", "Amelia", "Isla", "Mia", "Chloe", "Ruby"],
      last: ["Smith", "Jones", "Williams", "Brown", "Wilson", "Taylor", "Kelly"],
    },
  },
  {
    name: "Japan",
    iso: "JP",
    phoneCode: "81",
    phoneDigits: 10,
    currency: "JPY",
    airports: [
      "Narita International Airport",
      "Haneda Airport",
      "Kansai International Airport",
      "Chubu Centrair International Airport",
    ],
    seaports: ["Yokohama Osanbashi Pier", "Port of Kobe", "Port of Naha"],
    airlines: [PAL, CEBU_PACIFIC, JAPAN_AIRLINES, { name: "All Nippon Airways", code: "NH" }],
    regions: [
      { state: "Tokyo", cities: ["Shinjuku", "Setagaya", "Ota"] },
      { state: "Osaka", cities: ["Osaka", "Sakai"] },
      { state: "Aichi", cities: ["Nagoya", "Toyota"] },
      { state: "Kanagawa", cities: ["Yokohama", "Kawasaki"] },
    ],
    streets: ["1-2-3 Nishi-Shinjuku", "4-5-6 Umeda", "2-8-1 Sakae", "3-1-1 Minatomirai"],
    postcodeDigits: 7,
    passport: { prefix: "TR", digits: 7 },
    names: {
      male: ["Haruto", "Ren", "Sota", "Yuto", "Hiroshi", "Takeshi", "Kenji"],
      female: ["Yui", "Aoi", "Sakura", "Hina", "Yuki", "Mei"],
      last: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura"],
    },
  },
  {
    name: "South Korea",
    iso: "KR",
    phoneCode: "82",
    phoneDigits: 10,
    currency: "KRW",
    airports: ["Incheon International Airport", "Gimhae International Airport"],
    seaports: ["Busan Port International Passenger Terminal"],
    airlines: [
      PAL,
      CEBU_PACIFIC,
      AIRASIA_PH,
      KOREAN_AIR,
      { name: "Asiana Airlines", code: "OZ" },
      { name: "Jeju Air", code: "7C" },
    ],
    regions: [
      { state: "Seoul", cities: ["Gangnam-gu", "Mapo-gu", "Songpa-gu"] },
      { state: "Busan", cities: ["Haeundae-gu", "Busanjin-gu"] },
      { state: "Gyeonggi-do", cities: ["Suwon", "Seongnam"] },
    ],
    streets: ["Teheran-ro", "Gangnam-daero", "Haeundae-ro", "World Cup buk-ro"],
    postcodeDigits: 5,
    passport: { prefix: "M", digits: 8 },
    names: {
      male: ["Min-jun", "Seo-jun", "Ji-ho", "Do-yun", "Ha-joon", "Joon-young"],
      female: ["Seo-yeon", "Ji-woo", "Ha-eun", "Soo-ah", "Min-seo"],
      last: ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Yoon"],
    },
  },
  {
    name: "China",
    iso: "CN",
    phoneCode: "86",
    phoneDigits: 11,
    currency: "CNY",
    airports: [
      "Shanghai Pudong International Airport",
      "Beijing Capital International Airport",
      "Guangzhou Baiyun International Airport",
      "Xiamen Gaoqi International Airport",
    ],
    seaports: ["Shanghai Wusongkou International Cruise Terminal", "Xiamen International Cruise Terminal"],
    airlines: [
      PAL,
      CEBU_PACIFIC,
      { name: "China Eastern Airlines", code: "MU" },
      { name: "China Southern Airlines", code: "CZ" },
      { name: "Xiamen Airlines", code: "MF" },
    ],
    regions: [
      { state: "Shanghai", cities: ["Pudong", "Xuhui"] },
      { state: "Beijing", cities: ["Chaoyang", "Haidian"] },
      { state: "Guangdong", cities: ["Guangzhou", "Shenzhen"] },
      { state: "Fujian", cities: ["Xiamen", "Fuzhou"] },
    ],
    streets: ["Nanjing Road", "Century Avenue", "Jianguo Road", "Zhongshan Road"],
    postcodeDigits: 6,
    passport: { prefix: "E", digits: 8 },
    names: {
      male: ["Wei", "Hao", "Jun", "Lei", "Tao", "Yong"],
      female: ["Xin", "Na", "Mei", "Fang", "Jing", "Yan"],
      last: ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Zhao"],
    },
  },
  {
    name: "Singapore",
    iso: "SG",
    phoneCode: "65",
    phoneDigits: 8,
    currency: "SGD",
    airports: ["Singapore Changi Airport"],
    seaports: ["Marina Bay Cruise Centre Singapore"],
    airlines: [PAL, CEBU_PACIFIC, SINGAPORE_AIRLINES, { name: "Scoot", code: "TR" }],
    regions: [
      { state: "Central Region", cities: ["Bukit Timah", "Toa Payoh"] },
      { state: "East Region", cities: ["Tampines", "Bedok"] },
      { state: "West Region", cities: ["Jurong West", "Clementi"] },
    ],
    streets: ["Orchard Road", "Tampines Avenue 5", "Jurong West Street 42", "Lorong 4 Toa Payoh"],
    postcodeDigits: 6,
    passport: { prefix: "K", digits: 7 },
    names: {
      male: ["Wei Ming", "Jun Jie", "Ravi", "Ahmad", "Darren"],
      female: ["Hui Min", "Siti", "Priya", "Jia Hui", "Rachel"],
      last: ["Tan", "Lim", "Lee", "Ng", "Wong", "Goh"],
    },
  },
  {
    name: "Hong Kong",
    iso: "HK",
    phoneCode: "852",
    phoneDigits: 8,
    currency: "HKD",
    airports: ["Hong Kong International Airport"],
    seaports: ["Kai Tak Cruise Terminal"],
    airlines: [PAL, CEBU_PACIFIC, CATHAY, { name: "HK Express", code: "UO" }],
    regions: [
      { state: "Hong Kong Island", cities: ["Central and Western", "Wan Chai"] },
      { state: "Kowloon", cities: ["Yau Tsim Mong", "Kowloon City"] },
      { state: "New Territories", cities: ["Sha Tin", "Tsuen Wan"] },
    ],
    streets: ["Nathan Road", "Hennessy Road", "Queen's Road Central", "Castle Peak Road"],
    postcodeDigits: 6,
    passport: { prefix: "K", digits: 8 },
    names: {
      male: ["Chun Kit", "Ka Ho", "Wing Hong", "Tsz Hin"],
      female: ["Wing Yan", "Hoi Yan", "Mei Ling", "Ka Yan"],
      last: ["Chan", "Wong", "Leung", "Cheung", "Lau", "Ho"],
    },
  },
  {
    name: "Taiwan",
    iso: "TW",
    phoneCode: "886",
    phoneDigits: 9,
    currency: "TWD",
    airports: ["Taiwan Taoyuan International Airport", "Kaohsiung International Airport"],
    seaports: ["Port of Keelung", "Port of Kaohsiung"],
    airlines: [PAL, CEBU_PACIFIC, AIRASIA_PH, EVA, { name: "China Airlines", code: "CI" }],
    regions: [
      { state: "Taipei City", cities: ["Da'an", "Xinyi"] },
      { state: "New Taipei City", cities: ["Banqiao", "Zhonghe"] },
      { state: "Kaohsiung City", cities: ["Lingya", "Zuoying"] },
    ],
    streets: ["Zhongxiao East Road", "Xinyi Road", "Minsheng Road", "Zhongshan North Road"],
    postcodeDigits: 5,
    passport: { prefix: "", digits: 9 },
    names: {
      male: ["Chia-hao", "Chih-ming", "Tsung-han", "Yu-cheng"],
      female: ["Yu-ting", "Shu-fen", "Ya-ting", "Hsin-yi"],
      last: ["Chen", "Lin", "Huang", "Chang", "Lee", "Wu"],
    },
  },
  {
    name: "Malaysia",
    iso: "MY",
    phoneCode: "60",
    phoneDigits: 9,
    currency: "MYR",
    airports: ["Kuala Lumpur International Airport", "Kota Kinabalu International Airport"],
    seaports: ["Port Klang Cruise Centre", "Kota Kinabalu Port"],
    airlines: [
      PAL,
      CEBU_PACIFIC,
      AIRASIA_PH,
      { name: "Malaysia Airlines", code: "MH" },
      { name: "AirAsia", code: "AK" },
    ],
    regions: [
      { state: "Selangor", cities: ["Petaling Jaya", "Shah Alam"] },
      { state: "Kuala Lumpur", cities: ["Bukit Bintang", "Cheras"] },
      { state: "Sabah", cities: ["Kota Kinabalu", "Sandakan"] },
    ],
    streets: ["Jalan Bukit Bintang", "Jalan Ampang", "Jalan Gaya", "Jalan SS2/24"],
    postcodeDigits: 5,
    passport: { prefix: "A", digits: 8 },
    names: {
      male: ["Muhammad", "Ahmad", "Wei Jie", "Arjun", "Hafiz"],
      female: ["Nur Aisyah", "Siti", "Mei Ling", "Kavitha", "Farah"],
      last: ["Abdullah", "Tan", "Lim", "Ismail", "Rahman", "Wong"],
    },
  },
  {
    name: "United Arab Emirates",
    iso: "AE",
    phoneCode: "971",
    phoneDigits: 9,
    currency: "AED",
    airports: ["Dubai International Airport", "Zayed International Airport"],
    seaports: [],
    airlines: [PAL, CEBU_PACIFIC, EMIRATES, { name: "Etihad Airways", code: "EY" }],
    regions: [
      { state: "Dubai", cities: ["Deira", "Al Barsha", "Jumeirah", "Al Karama"] },
      { state: "Abu Dhabi", cities: ["Khalifa City", "Al Reem Island"] },
      { state: "Sharjah", cities: ["Al Nahda", "Al Majaz"] },
    ],
    streets: ["Sheikh Zayed Road", "Al Rigga Road", "Al Wahda Street", "Corniche Road"],
    postcodeDigits: 5,
    passport: { prefix: "A", digits: 8 },
    names: {
      male: ["Ahmed", "Mohammed", "Omar", "Khalid", "Saeed"],
      female: ["Fatima", "Aisha", "Mariam", "Noura"],
      last: ["Al Mansoori", "Al Hashimi", "Al Falasi", "Al Nuaimi"],
    },
  },
  {
    name: "Saudi Arabia",
    iso: "SA",
    phoneCode: "966",
    phoneDigits: 9,
    currency: "SAR",
    airports: [
      "King Khalid International Airport",
      "King Abdulaziz International Airport",
      "King Fahd International Airport",
    ],
    seaports: [],
    airlines: [PAL, CEBU_PACIFIC, { name: "Saudia", code: "SV" }],
    regions: [
      { state: "Riyadh Province", cities: ["Riyadh"] },
      { state: "Makkah Province", cities: ["Jeddah", "Mecca"] },
      { state: "Eastern Province", cities: ["Dammam", "Al Khobar", "Jubail"] },
    ],
    streets: ["King Fahd Road", "Prince Sultan Street", "Tahlia Street", "King Abdullah Road"],
    postcodeDigits: 5,
    passport: { prefix: "A", digits: 8 },
    names: {
      male: ["Abdullah", "Faisal", "Turki", "Sultan", "Fahad"],
      female: ["Nora", "Sara", "Reem", "Lama"],
      last: ["Al Saud", "Al Qahtani", "Al Ghamdi", "Al Harbi", "Al Otaibi"],
    },
  },
  {
    name: "Qatar",
    iso: "QA",
    phoneCode: "974",
    phoneDigits: 8,
    currency: "QAR",
    airports: ["Hamad International Airport"],
    seaports: [],
    airlines: [PAL, CEBU_PACIFIC, QATAR],
    regions: [
      { state: "Doha", cities: ["Al Sadd", "West Bay", "Al Mansoura"] },
      { state: "Al Rayyan", cities: ["Al Rayyan", "Muaither"] },
    ],
    streets: ["C Ring Road", "Al Corniche Street", "Salwa Road", "Al Waab Street"],
    postcodeDigits: 5,
    passport: { prefix: "", digits: 8 },
    names: {
      male: ["Hamad", "Tamim", "Jassim", "Nasser"],
      female: ["Maryam", "Hessa", "Moza", "Alanoud"],
      last: ["Al Thani", "Al Kuwari", "Al Marri", "Al Sulaiti"],
    },
  },
  {
    name: "Germany",
    iso: "DE",
    phoneCode: "49",
    phoneDigits: 11,
    currency: "EUR",
    airports: ["Frankfurt Airport", "Munich Airport"],
    seaports: [],
    airlines: [EMIRATES, QATAR, SINGAPORE_AIRLINES, CATHAY],
    regions: [
      { state: "Bavaria", cities: ["Munich", "Nuremberg"] },
      { state: "Hesse", cities: ["Frankfurt am Main", "Wiesbaden"] },
      { state: "Berlin", cities: ["Berlin"] },
      { state: "North Rhine-Westphalia", cities: ["Cologne", "Dusseldorf"] },
    ],
    streets: ["Hauptstrasse", "Bahnhofstrasse", "Schillerstrasse", "Gartenweg"],
    postcodeDigits: 5,
    passport: { prefix: "C", digits: 8 },
    names: {
      male: ["Lukas", "Felix", "Jonas", "Maximilian", "Leon"],
      female: ["Anna", "Lea", "Sophie", "Laura", "Hannah"],
      last: ["Mueller", "Schmidt", "Schneider", "Fischer", "Weber", "Wagner"],
    },
  },
  {
    name: "India",
    iso: "IN",
    phoneCode: "91",
    phoneDigits: 10,
    currency: "INR",
    airports: [
      "Indira Gandhi International Airport",
      "Chhatrapati Shivaji Maharaj International Airport",
    ],
    seaports: [],
    airlines: [SINGAPORE_AIRLINES, CATHAY, { name: "IndiGo", code: "6E" }],
    regions: [
      { state: "Maharashtra", cities: ["Mumbai", "Pune"] },
      { state: "Delhi", cities: ["New Delhi"] },
      { state: "Karnataka", cities: ["Bengaluru", "Mysuru"] },
    ],
    streets: ["MG Road", "Linking Road", "Brigade Road", "Connaught Place"],
    postcodeDigits: 6,
    passport: { prefix: "Z", digits: 7 },
    names: {
      male: ["Aarav", "Vivaan", "Arjun", "Rahul", "Rohan"],
      female: ["Ananya", "Priya", "Diya", "Kavya", "Isha"],
      last: ["Sharma", "Patel", "Singh", "Kumar", "Gupta", "Reddy"],
    },
  },
];

/** Where Filipino overseas workers and migrants mostly live (permanent residence abroad). */
export const OFW_COUNTRIES: readonly string[] = [
  "United States",
  "Canada",
  "Saudi Arabia",
  "United Arab Emirates",
  "Qatar",
  "Singapore",
  "Hong Kong",
  "Japan",
  "Australia",
  "United Kingdom",
  "Taiwan",
];

export const FILIPINO_NAMES: NamePool = {
  male: [
    "Juan", "Jose", "Mark", "Rodel", "Paolo", "Carlo", "Ramon", "Nestor", "Jericho", "Angelo",
    "Christian", "John Paul", "Rommel", "Arnel", "Dennis", "Francis", "Miguel", "Rafael",
  ],
  female: [
    "Maria", "Ana", "Angelica", "Kristine", "Marites", "Jasmine", "Bea", "Liza", "Rosalie",
    "Jennifer", "Maricel", "Camille", "Joy", "Maribel", "Patricia", "Kathleen", "Lovely",
  ],
  last: [
    "Dela Cruz", "Santos", "Reyes", "Garcia", "Mendoza", "Bautista", "Villanueva", "Aquino",
    "Ramos", "Castillo", "Navarro", "Soriano", "Manalo", "Pascual", "Salazar", "Tolentino",
    "Macaraeg", "Dimaculangan", "Flores", "De Leon", "Gonzales", "Torres", "Lopez", "Aguilar",
  ],
};

export interface PhilippineArea {
  /** What the site stores as hotel_details: the city or area of the stay. */
  readonly label: string;
  readonly province: string;
  readonly airport: string;
  readonly seaport?: string;
  readonly hotels: readonly string[];
  readonly municipalities: readonly { readonly name: string; readonly barangays: readonly string[] }[];
  /** How often travellers go there, relative to the others. */
  readonly weight: number;
}

const NAIA = "Ninoy Aquino International Airport";
const MACTAN = "Mactan-Cebu International Airport";

export const PHILIPPINE_AREAS: readonly PhilippineArea[] = [
  {
    label: "Manila",
    province: "Metro Manila",
    airport: NAIA,
    seaport: "Manila South Harbor",
    hotels: [
      "Manila Marriott Hotel",
      "Okada Manila",
      "Shangri-La The Fort, Manila",
      "Makati Shangri-La, Manila",
      "The Peninsula Manila",
      "Diamond Hotel Philippines",
      "Conrad Manila",
      "Solaire Resort Entertainment City",
      "Hotel Okura Manila",
      "Raffles Makati",
      "Seda BGC",
      "Red Planet Manila Bay",
    ],
    municipalities: [
      { name: "Quezon City", barangays: ["Batasan Hills", "Commonwealth", "Socorro", "Holy Spirit"] },
      { name: "Manila", barangays: ["Sampaloc", "Ermita", "Malate", "Tondo"] },
      { name: "Makati", barangays: ["Poblacion", "Bel-Air", "San Lorenzo", "Guadalupe Nuevo"] },
      { name: "Pasig", barangays: ["Kapitolyo", "Ugong", "San Antonio"] },
      { name: "Taguig", barangays: ["Fort Bonifacio", "Western Bicutan", "Ususan"] },
      { name: "Parañaque", barangays: ["San Dionisio", "BF Homes", "Baclaran"] },
    ],
    weight: 45,
  },
  {
    label: "Cebu",
    province: "Cebu",
    airport: MACTAN,
    seaport: "Port of Cebu",
    hotels: [
      "Shangri-La Mactan, Cebu",
      "Crimson Resort and Spa Mactan",
      "Radisson Blu Cebu",
      "Seda Ayala Center Cebu",
      "Waterfront Cebu City Hotel & Casino",
      "JPark Island Resort",
    ],
    municipalities: [
      { name: "Cebu City", barangays: ["Lahug", "Mabolo", "Guadalupe", "Banilad"] },
      { name: "Lapu-Lapu City", barangays: ["Mactan", "Pusok", "Maribago"] },
      { name: "Mandaue City", barangays: ["Subangdaku", "Centro", "Bakilid"] },
    ],
    weight: 15,
  },
  {
    label: "Clark",
    province: "Pampanga",
    airport: "Clark International Airport",
    seaport: "Port of Subic Bay",
    hotels: [
      "Hilton Clark Sun Valley Resort",
      "Quest Plus Conference Center Clark",
      "Widus Hotel and Casino",
    ],
    municipalities: [
      { name: "Angeles City", barangays: ["Balibago", "Malabanias", "Pampang"] },
      { name: "San Fernando", barangays: ["Dolores", "Sindalan", "Del Pilar"] },
    ],
    weight: 8,
  },
  {
    label: "Davao",
    province: "Davao del Sur",
    airport: "Francisco Bangoy International Airport",
    seaport: "Port of Davao (Sasa Wharf)",
    hotels: ["Marco Polo Davao", "Seda Abreeza", "Dusit Thani Residence Davao"],
    municipalities: [{ name: "Davao City", barangays: ["Buhangin", "Talomo", "Poblacion", "Matina"] }],
    weight: 6,
  },
  {
    label: "Iloilo",
    province: "Iloilo",
    airport: "Iloilo International Airport",
    seaport: "Port of Iloilo",
    hotels: ["Richmonde Hotel Iloilo", "Seda Atria", "Courtyard by Marriott Iloilo"],
    municipalities: [{ name: "Iloilo City", barangays: ["Jaro", "Molo", "La Paz", "Mandurriao"] }],
    weight: 4,
  },
  {
    label: "Boracay",
    province: "Aklan",
    airport: "Kalibo International Airport",
    hotels: ["Shangri-La Boracay", "Discovery Shores Boracay", "Henann Regency Resort", "The Lind Boracay"],
    municipalities: [
      { name: "Malay", barangays: ["Balabag", "Manoc-Manoc", "Yapak"] },
      { name: "Kalibo", barangays: ["Poblacion", "Andagao"] },
    ],
    weight: 6,
  },
  {
    label: "Palawan",
    province: "Palawan",
    airport: "Puerto Princesa International Airport",
    seaport: "Puerto Princesa Port",
    hotels: [
      "El Nido Resorts Lagen Island",
      "Club Paradise Palawan",
      "Two Seasons Coron Island Resort",
      "Hue Hotels and Resorts Puerto Princesa",
    ],
    municipalities: [
      { name: "Puerto Princesa", barangays: ["San Pedro", "Bancao-Bancao", "San Jose"] },
      { name: "El Nido", barangays: ["Buena Suerte", "Corong-Corong"] },
      { name: "Coron", barangays: ["Poblacion 1", "Tagumpay"] },
    ],
    weight: 5,
  },
  {
    label: "Bohol",
    province: "Bohol",
    airport: "Bohol-Panglao International Airport",
    seaport: "Port of Tagbilaran",
    hotels: ["Amorita Resort", "Henann Resort Alona Beach", "The Bellevue Resort Bohol"],
    municipalities: [
      { name: "Tagbilaran City", barangays: ["Cogon", "Dao", "Poblacion II"] },
      { name: "Panglao", barangays: ["Tawala", "Danao"] },
    ],
    weight: 4,
  },
  {
    label: "Laoag",
    province: "Ilocos Norte",
    airport: "Laoag International Airport",
    seaport: "Currimao Port",
    hotels: ["Fort Ilocandia Resort Hotel", "Java Hotel Laoag"],
    municipalities: [{ name: "Laoag City", barangays: ["San Lorenzo", "Balatong", "Cavit"] }],
    weight: 2,
  },
];

/** Small hotels and inns a traveller types in when theirs is not listed ("other"). */
export const OTHER_HOTELS: readonly string[] = [
  "Casa Mabini Inn",
  "Friendly's Guesthouse",
  "Mabuhay Manor",
  "Lola's Transient House",
  "Azalea Residences",
  "Bayview Pension House",
  "Sampaguita Suites",
];

export const CRUISE_SHIPS: readonly string[] = [
  "Spectrum of the Seas",
  "Quantum of the Seas",
  "Ovation of the Seas",
  "Diamond Princess",
  "Sapphire Princess",
  "Celebrity Solstice",
  "Westerdam",
  "Norwegian Jewel",
  "MSC Bellissima",
  "Costa Serena",
  "Genting Dream",
  "Silver Muse",
  "Seabourn Encore",
];

export const FILIPINO_OCCUPATIONS: readonly string[] = [
  "Nurse", "Caregiver", "Seafarer", "Engineer", "Domestic Helper", "Teacher", "IT Specialist",
  "Accountant", "Construction Worker", "Electrician", "Chef", "Sales Associate", "Driver",
  "Business Owner", "Student", "Retired", "Call Center Agent", "Midwife",
];

export const FOREIGN_OCCUPATIONS: readonly string[] = [
  "Software Engineer", "Teacher", "Manager", "Consultant", "Doctor", "Architect", "Student",
  "Retired", "Business Owner", "Sales Executive", "Designer", "Pilot", "Researcher",
];

export const PURPOSES: readonly (readonly [string, number])[] = [
  ["holiday_or_vacation", 40],
  ["visiting_friends_or_relatives", 20],
  ["business_or_work", 15],
  ["returning_resident", 12],
  ["education_or_training", 4],
  ["medical", 2],
  ["official_government", 2],
  ["convention_or_conference", 3],
  ["transit_to_another_country", 2],
];

/** Entries travellers list under a "Yes" customs answer: what, and a typical USD amount. */
export const CUSTOMS_GOODS: { readonly [K in CustomsItem]?: readonly (readonly [string, number])[] } = {
  gambling_paraphernalia: [
    ["Playing cards", 15],
    ["Mahjong set", 80],
    ["Poker chip set", 60],
  ],
  cosmetics_skincare: [
    ["Sunscreen", 15],
    ["Facial serum", 45],
    ["Lipstick set", 35],
    ["Perfume 100ml", 120],
    ["Moisturizer", 30],
  ],
  dangerous_drugs: [["Prescription painkillers (with prescription)", 40]],
  firearms_ammunitions: [["Licensed pistol (with permit)", 650]],
  alcohol_tobacco: [
    ["Whisky 1L", 55],
    ["Red wine 750ml", 25],
    ["Cigarettes (carton)", 60],
    ["Cigars (box)", 150],
  ],
  foodstuff_fruit: [
    ["Chocolates", 20],
    ["Apples", 10],
    ["Cheese", 18],
    ["Canned goods", 25],
    ["Grapes", 12],
  ],
  mobile_phones: [
    ["iPhone 15", 800],
    ["Samsung Galaxy S24", 750],
    ["iPad", 500],
    ["Laptop", 1100],
  ],
  cremains_human: [["Cremated remains of a family member (urn)", 0]],
  jewelry_gold: [
    ["Gold necklace", 900],
    ["Wedding ring", 1200],
    ["Wristwatch", 700],
    ["Gold bracelet", 650],
  ],
  other_goods: [
    ["Balikbayan box (clothes and toys)", 300],
    ["Shoes", 90],
    ["Handbag", 250],
    ["Vitamins", 40],
    ["Kitchen appliance", 150],
  ],
};

/** How likely an arriving air traveller answers "Yes" to each customs item. */
export const CUSTOMS_YES_RATE: { readonly [K in CustomsItem]: number } = {
  philippine_currency: 0.05,
  foreign_currency: 0.08,
  gambling_paraphernalia: 0.01,
  cosmetics_skincare: 0.12,
  dangerous_drugs: 0.002,
  firearms_ammunitions: 0.003,
  alcohol_tobacco: 0.12,
  foodstuff_fruit: 0.1,
  mobile_phones: 0.08,
  cremains_human: 0.003,
  jewelry_gold: 0.05,
  other_goods: 0.1,
};

export const COURIERS: readonly string[] = ["DHL Express", "LBC Express", "FedEx", "2GO Express"];
export const MONETARY_INSTRUMENTS: readonly string[] = ["Cash", "Traveler's Cheques", "Bank Draft"];
export const BUSINESSES: readonly string[] = [
  "Pacific Remit Services Inc.",
  "Luzon Trading Corporation",
  "Visayas Money Changer",
  "Golden Peso Exchange",
];
