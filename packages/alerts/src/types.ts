// The interface agreed with the screens service and the player (alerts-interface): change only by adding optional
// fields, since both are built against it at the same time.

/** Where a report came from. */
export type AlertSource = 'jma' | 'cap';
/** Control/Status: 通常 actual, 訓練 exercise, 試験 test. */
export type AlertStatus = 'actual' | 'exercise' | 'test';
/** Head/InfoType: 発表 issued, 訂正 corrected, 取消 cancelled (CAP: Alert, Update, Cancel). */
export type AlertInfoType = 'issued' | 'corrected' | 'cancelled';
/** JMA seismic intensity, ordered: compare with intensityRank(). */
export type Intensity = '1' | '2' | '3' | '4' | '5-' | '5+' | '6-' | '6+' | '7';
export type TsunamiGrade = 'major-warning' | 'warning' | 'advisory' | 'forecast' | 'none';

export interface AlertReport {
  source: AlertSource;
  /** JMA Head/EventID (CAP: identifier of the first alert it references, else its own) */
  eventId: string;
  /** JMA Head/Serial (CAP: sent time as number); with eventId and infoType it names one report */
  serial: number;
  /** unique per report, the de-duplication key (opaque): CAP `cap:${eventId}:${serial}:${infoType}`; JMA adds the report type, `jma:${eventId}:${serial}:${infoType}:${jmaType}`, since one earthquake's VXSE53 and VTSE51 share EventID and serial */
  reportId: string;
  infoType: AlertInfoType;
  status: AlertStatus;
  /** JMA Control/Title or InfoKind, e.g. 震度速報, 震源・震度に関する情報, 津波警報・注意報・予報a, 気象特別警報・警報・注意報 */
  title: string;
  /** what kind of takeover it may cause; 'other' reports are parsed but never take over */
  kind: 'earthquake' | 'tsunami' | 'weather' | 'other';
  /** ISO 8601 */
  reportedAt: string;
  /** ISO 8601; absent = the rule's duration applies */
  validUntil?: string;
  /** Head/Headline/Text (ja), kept for the takeover log and e-mail */
  headline: string;
  earthquake?: {
    originTime?: string;
    hypocentreName?: string; // ja, e.g. 石川県能登地方
    hypocentreCode?: string; // JMA 震央地名 code
    magnitude?: number;
    maxIntensity?: Intensity;
    /** 地震情報／細分区域 codes (e.g. '390' 石川県能登) with the area's max intensity */
    areas: Array<{ code: string; name: string; intensity: Intensity }>;
    /** 市町村等 codes (7 digits, e.g. '1720400' 輪島市) with intensity, when the report has them (VXSE53) */
    cities: Array<{ code: string; name: string; intensity: Intensity }>;
  };
  tsunami?: {
    /** 津波予報区 codes (e.g. '100' 北海道太平洋沿岸東部) */
    regions: Array<{ code: string; name: string; grade: TsunamiGrade; arrival?: string; maxHeight?: string }>;
  };
  weather?: {
    /** 市町村等（気象警報等） codes (7 digits) with the warnings in force there after this report */
    areas: Array<{
      code: string;
      name: string;
      warnings: Array<{
        code: string;
        name: string;
        level: 'emergency' | 'warning' | 'advisory';
        state: 'issued' | 'continued' | 'lifted';
      }>;
    }>;
  };
  /** CAP only: areas as polygons ([lat, lon] rings) and/or codes */
  polygons?: Array<Array<[number, number]>>;
  /** CAP only: the area codes (geocode values; JMA 市町村等 codes when the feed uses them) */
  areaCodes?: string[];
  /** CAP only: the info's severity, which stands for an intensity or tsunami grade when matching */
  capSeverity?: 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown';
  /** JMA only: the report's type, e.g. VXSE53, VTSE41, VPWW54 (from Control/Title) */
  jmaType?: string;
}

/** Where a screen is. */
export interface ScreenPlace {
  /** 市町村等（気象警報等） code, 7 digits */
  cityCode: string;
  /** the 津波予報区 code when the screen is near the coast, else null */
  tsunamiRegion: string | null;
  /** optional point for CAP polygons */
  point?: [number, number];
}

/** How a report concerns a place: the strongest intensity, tsunami grade or weather warnings there. */
export interface PlaceConcern {
  intensity?: Intensity;
  tsunami?: TsunamiGrade;
  weather?: string[];
}

export interface Prefecture {
  code: string;
  names: { ja: string; en: string; fr: string; it: string };
}

export interface CityEntry {
  code: string;
  name: string;
  kana?: string;
  romaji: string;
  earthquakeArea: string;
  tsunamiRegions: string[];
}

export interface CityInfo {
  code: string;
  name: string;
  romaji: string;
  prefCode: string;
  earthquakeArea: string;
  tsunamiRegions: string[];
  /** the codes earthquake reports use for it: itself, or a designated city's wards (札幌市 → 札幌中央区 …) */
  earthquakeCities?: string[];
}

export interface TsunamiRegionInfo {
  code: string;
  name: string;
  romaji: string;
}

/** An entry of a JMA Atom feed: the report's id, where to fetch it, when it was updated, its title. */
export interface AtomEntry {
  id: string;
  url: string;
  updated: string;
  title: string;
}
