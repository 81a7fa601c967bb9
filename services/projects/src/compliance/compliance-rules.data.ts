// The statutory obligations of a commercial drone (small unmanned aircraft) job, per jurisdiction,
// with the instrument, the section and an official URL for each, so a person can check every line
// against the source. A versioned data set: raise RULESET_VERSION whenever an obligation, a
// citation or a country list changes; every compliance answer names the version it was read from.
// It states obligations a business must meet; it never certifies that a flight may proceed (the
// tenant stays the professional of record for its flights, spec item 3).

export const RULESET_VERSION = '2025.1';
/** When the citations were last checked against their sources. */
export const RULESET_REVIEWED_ON = '2025-06-30';

export interface Citation {
  /** The legal instrument, as its publisher names it. */
  instrument: string;
  /** The part, section, article or regulation within it. */
  section: string;
  /** The official publisher's page for the instrument (or the section, where it has its own). */
  url: string;
}

export interface Obligation {
  id: string;
  title: string;
  /** What the business has to do, in a sentence. */
  requirement: string;
  citation: Citation;
  /** Guidance that is not law, when it helps to meet the obligation. */
  guidance?: Citation;
}

export interface Jurisdiction {
  id: string;
  name: string;
  authority: string;
  /** ISO 3166-1 alpha-2 codes of the countries and territories the rules apply in. */
  countries: readonly string[];
  obligations: readonly Obligation[];
}

const ecfr107 = (subpart: string, section: string): Citation => ({
  instrument: '14 CFR Part 107 (Small Unmanned Aircraft Systems)',
  section: `§ ${section}`,
  url: `https://www.ecfr.gov/current/title-14/chapter-I/subchapter-F/part-107/subpart-${subpart}/section-${section}`,
});

const US: Jurisdiction = {
  id: 'us-faa',
  name: 'United States',
  authority: 'Federal Aviation Administration (FAA)',
  countries: ['US', 'PR', 'GU', 'VI', 'AS', 'MP'],
  obligations: [
    {
      id: 'us-pilot-certificate',
      title: 'Remote pilot certificate',
      requirement: 'The remote pilot in command holds a remote pilot certificate with a small UAS rating.',
      citation: ecfr107('A', '107.12'),
    },
    {
      id: 'us-registration',
      title: 'Aircraft registration',
      requirement: 'The aircraft is registered with the FAA and carries its registration number.',
      citation: ecfr107('A', '107.13'),
    },
    {
      id: 'us-remote-id',
      title: 'Remote identification',
      requirement: 'The aircraft broadcasts Remote ID (a standard Remote ID aircraft or a broadcast module).',
      citation: {
        instrument: '14 CFR Part 89 (Remote Identification of Unmanned Aircraft)',
        section: '§ 89.105',
        url: 'https://www.ecfr.gov/current/title-14/chapter-I/subchapter-F/part-89/subpart-B/section-89.105',
      },
    },
    {
      id: 'us-preflight',
      title: 'Preflight familiarization and inspection',
      requirement: 'Before flight, the pilot assesses the operating environment and inspects the aircraft.',
      citation: ecfr107('B', '107.49'),
    },
    {
      id: 'us-vlos',
      title: 'Visual line of sight',
      requirement: 'The aircraft stays within visual line of sight of the remote pilot or a visual observer.',
      citation: ecfr107('B', '107.31'),
    },
    {
      id: 'us-airspace',
      title: 'Controlled airspace authorization',
      requirement:
        'Flights in Class B, C, D or surface-area Class E airspace have prior ATC authorization (for example through LAANC).',
      citation: ecfr107('B', '107.41'),
    },
    {
      id: 'us-limits',
      title: 'Operating limitations',
      requirement:
        'At most 400 feet above ground (or within 400 feet of a structure), 100 mph, 3 statute miles visibility, clear of clouds.',
      citation: ecfr107('B', '107.51'),
    },
    {
      id: 'us-people',
      title: 'Operations over people',
      requirement: 'Flight over people follows the category rules for the aircraft, or does not happen.',
      citation: ecfr107('D', '107.39'),
    },
    {
      id: 'us-night',
      title: 'Operations at night',
      requirement:
        'Night flight needs current training and anti-collision lighting visible for 3 statute miles.',
      citation: ecfr107('B', '107.29'),
    },
    {
      id: 'us-accident-report',
      title: 'Accident reporting',
      requirement:
        'Serious injury, loss of consciousness or property damage over $500 is reported to the FAA within 10 calendar days.',
      citation: ecfr107('A', '107.9'),
    },
  ],
};

const uk947 = (article: string): Citation => ({
  instrument: 'UK Regulation (EU) 2019/947 (as retained)',
  section: `Article ${article}`,
  url: `https://www.legislation.gov.uk/eur/2019/947/article/${article}`,
});
const CAP_722: Citation = {
  instrument: 'CAA CAP 722: Unmanned Aircraft System Operations in UK Airspace – Policy and Guidance',
  section: 'Current edition',
  url: 'https://www.caa.co.uk/cap722',
};

const UK: Jurisdiction = {
  id: 'uk-caa',
  name: 'United Kingdom',
  authority: 'Civil Aviation Authority (CAA)',
  countries: ['GB'],
  obligations: [
    {
      id: 'uk-operator-registration',
      title: 'Operator registration',
      requirement:
        'The business is registered with the CAA and its Operator ID is displayed on every aircraft.',
      citation: uk947('14'),
      guidance: CAP_722,
    },
    {
      id: 'uk-open-category',
      title: 'Open category conditions',
      requirement:
        'Open-category flights stay within the category: visual line of sight, at most 120 metres above the surface, clear of uninvolved people as the subcategory requires.',
      citation: uk947('4'),
      guidance: CAP_722,
    },
    {
      id: 'uk-specific-authorisation',
      title: 'Operational authorisation (specific category)',
      requirement:
        'Flights outside the open category hold a CAA operational authorisation backed by a risk assessment.',
      citation: uk947('5'),
      guidance: CAP_722,
    },
    {
      id: 'uk-risk-assessment',
      title: 'Operational risk assessment',
      requirement: 'A specific-category operation is supported by an operational risk assessment.',
      citation: uk947('11'),
      guidance: CAP_722,
    },
    {
      id: 'uk-pilot-age',
      title: 'Remote pilot minimum age',
      requirement: 'Remote pilots meet the minimum age for the category flown.',
      citation: uk947('9'),
    },
    {
      id: 'uk-geographical-zones',
      title: 'UAS geographical zones',
      requirement:
        'Flights respect the conditions of the UAS geographical zones and flight restriction zones at the site.',
      citation: uk947('15'),
      guidance: CAP_722,
    },
  ],
};

const eu947 = (article: string): Citation => ({
  instrument: 'Commission Implementing Regulation (EU) 2019/947',
  section: `Article ${article}`,
  url: 'https://eur-lex.europa.eu/eli/reg_impl/2019/947/oj',
});
const EASA_EAR: Citation = {
  instrument: 'EASA Easy Access Rules for Unmanned Aircraft Systems',
  section: 'Regulations (EU) 2019/947 and 2019/945 with AMC and GM',
  url: 'https://www.easa.europa.eu/en/document-library/easy-access-rules/easy-access-rules-unmanned-aircraft-systems-regulations-eu',
};

const EU: Jurisdiction = {
  id: 'eu-easa',
  name: 'European Union and EASA member states',
  authority: 'EASA and the national aviation authority of the state of registration',
  // The 27 member states plus the EASA states that apply the drone regulations (IS, LI, NO, CH).
  countries: [
    'AT',
    'BE',
    'BG',
    'HR',
    'CY',
    'CZ',
    'DK',
    'EE',
    'FI',
    'FR',
    'DE',
    'GR',
    'HU',
    'IE',
    'IT',
    'LV',
    'LT',
    'LU',
    'MT',
    'NL',
    'PL',
    'PT',
    'RO',
    'SK',
    'SI',
    'ES',
    'SE',
    'IS',
    'LI',
    'NO',
    'CH',
  ],
  obligations: [
    {
      id: 'eu-operator-registration',
      title: 'Operator registration',
      requirement:
        'The business is registered with the national aviation authority of its principal place of business and shows its registration number on every aircraft.',
      citation: eu947('14'),
      guidance: EASA_EAR,
    },
    {
      id: 'eu-open-category',
      title: 'Open category conditions',
      requirement:
        'Open-category flights stay within the category: class-marked or legacy aircraft under 25 kg, visual line of sight, at most 120 metres above the surface.',
      citation: eu947('4'),
      guidance: EASA_EAR,
    },
    {
      id: 'eu-class-marking',
      title: 'Aircraft class requirements',
      requirement:
        'An aircraft flown in the open category meets the requirements of its class (C0 to C4) and carries the class identification label.',
      citation: {
        instrument: 'Commission Delegated Regulation (EU) 2019/945',
        section: 'Article 4',
        url: 'https://eur-lex.europa.eu/eli/reg_del/2019/945/oj',
      },
    },
    {
      id: 'eu-specific-authorisation',
      title: 'Operational authorisation (specific category)',
      requirement:
        'Flights outside the open category hold an operational authorisation, a declaration under a standard scenario, or a light UAS operator certificate.',
      citation: eu947('5'),
      guidance: EASA_EAR,
    },
    {
      id: 'eu-risk-assessment',
      title: 'Operational risk assessment',
      requirement: 'A specific-category operation is supported by an operational risk assessment.',
      citation: eu947('11'),
      guidance: EASA_EAR,
    },
    {
      id: 'eu-pilot-age',
      title: 'Remote pilot minimum age',
      requirement: 'Remote pilots are at least 16, or the lower age the member state allows.',
      citation: eu947('9'),
    },
    {
      id: 'eu-geographical-zones',
      title: 'UAS geographical zones',
      requirement:
        'Flights respect the conditions the member state sets for the UAS geographical zones at the site.',
      citation: eu947('15'),
    },
  ],
};

const cars = (section: string): Citation => ({
  instrument: 'Canadian Aviation Regulations (SOR/96-433), Part IX – Remotely Piloted Aircraft Systems',
  section: `Section ${section}`,
  url: `https://laws-lois.justice.gc.ca/eng/regulations/SOR-96-433/FullText.html#s-${section}`,
});

const CA: Jurisdiction = {
  id: 'ca-tc',
  name: 'Canada',
  authority: 'Transport Canada',
  countries: ['CA'],
  obligations: [
    {
      id: 'ca-registration',
      title: 'Aircraft registration',
      requirement:
        'Every aircraft of 250 g to 25 kg is registered with Transport Canada and marked with its registration number.',
      citation: cars('901.02'),
    },
    {
      id: 'ca-pilot-certificate',
      title: 'Pilot certificate',
      requirement:
        'The pilot holds a pilot certificate for basic or, in controlled airspace or near people, advanced operations.',
      citation: cars('901.54'),
    },
    {
      id: 'ca-vlos',
      title: 'Visual line of sight',
      requirement: 'The aircraft stays within visual line of sight of the pilot or a visual observer.',
      citation: cars('901.11'),
    },
    {
      id: 'ca-altitude',
      title: 'Maximum altitude',
      requirement: 'At most 400 feet above ground level.',
      citation: cars('901.25'),
    },
    {
      id: 'ca-controlled-airspace',
      title: 'Controlled airspace',
      requirement:
        'Flights in controlled airspace are advanced operations with an authorisation from NAV CANADA.',
      citation: cars('901.71'),
    },
    {
      id: 'ca-sfoc',
      title: 'Special flight operations certificate',
      requirement:
        'Operations beyond Part IX limits (beyond visual line of sight, over 25 kg) hold an SFOC-RPAS.',
      citation: cars('903.01'),
    },
  ],
};

const casr101: (regulation: string) => Citation = (regulation) => ({
  instrument: 'Civil Aviation Safety Regulations 1998, Part 101 (Unmanned aircraft and rockets)',
  section: `Regulation ${regulation}`,
  url: 'https://www.legislation.gov.au/F1998B00220/latest/text',
});

const AU: Jurisdiction = {
  id: 'au-casa',
  name: 'Australia',
  authority: 'Civil Aviation Safety Authority (CASA)',
  countries: ['AU'],
  obligations: [
    {
      id: 'au-standard-conditions',
      title: 'Standard operating conditions',
      requirement:
        'Visual line of sight, at most 400 ft above ground, by day, at least 30 m from people, clear of controlled aerodromes, unless CASA approves otherwise.',
      citation: casr101('101.238'),
    },
    {
      id: 'au-excluded-category',
      title: 'Excluded category',
      requirement:
        'Commercial flights of very small or small aircraft without a ReOC stay within the excluded category and are notified to CASA.',
      citation: casr101('101.237'),
    },
    {
      id: 'au-reoc',
      title: 'RPA operator’s certificate',
      requirement:
        'Operations outside the excluded category are conducted under a remotely piloted aircraft operator’s certificate (ReOC).',
      citation: casr101('101.252'),
    },
    {
      id: 'au-repl',
      title: 'Remote pilot licence',
      requirement: 'Pilots flying under a ReOC hold a remote pilot licence (RePL) for the aircraft category.',
      citation: casr101('101.270'),
    },
  ],
};

export const JURISDICTIONS: readonly Jurisdiction[] = [US, UK, EU, CA, AU];
