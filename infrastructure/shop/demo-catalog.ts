/**
 * The demo catalog `npm start` seeds (infrastructure/shop/demo-seed.ts): Vietnamese categories, campaigns and voucher
 * pools, with windows relative to the seeding time. Data and its mapping to the admin services' inputs only.
 */
import type { Currency, PoolTerms } from '../../domain/shop/index.js';
import type { CampaignInput } from '../../application/shop/index.js';

export const hour = 3600_000;
export const day = 24 * hour;
export const cdn = 'https://cdn.example.vn/demo';

/** ASCII slug of a Vietnamese name, for the demo's image URLs. */
export const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const categoryNames = {
  food: 'Ẩm thực',
  drinks: 'Cà phê & trà sữa',
  travel: 'Di chuyển',
  shopping: 'Mua sắm',
  phone: 'Điện thoại & viễn thông',
  fun: 'Giải trí',
  trips: 'Du lịch',
  beauty: 'Sức khỏe & làm đẹp',
} as const;
export type CategoryKey = keyof typeof categoryNames;

export interface DemoPool {
  category: CategoryKey;
  brand: string;
  title: string;
  shortTitle: string;
  description: string;
  faceValue: number;
  sellingPrice: number;
  stock: number;
  currency?: Currency;
  terms?: Partial<PoolTerms>;
  /** Days from now the voucher-level validity window ends (none when absent). */
  validForDays?: number;
}

export interface DemoCampaign {
  key: 'flash' | 'food' | 'travel' | 'shopping' | 'fun' | 'presale' | 'paused';
  code: string;
  name: string;
  description: string;
  tag: string;
  priority: number;
  /** Window relative to the seeding time. */
  startIn: number;
  endIn: number;
  /** Presale opening, relative to the seeding time (campaign shown from then, vouchers on sale from startIn). */
  presaleIn?: number;
  teaser?: string;
  status: 'ACTIVE' | 'PAUSED';
  pools: DemoPool[];
}

const offline = (termsAndConditions: string): Partial<PoolTerms> => ({ usageType: 'OFFLINE', termsAndConditions });

export const campaigns: DemoCampaign[] = [
  {
    key: 'flash',
    code: 'FLASH-GIO-VANG',
    name: 'Flash Sale giờ vàng – giảm đến 50%',
    description:
      'Săn voucher điện thoại, ẩm thực và di chuyển giá sốc trong vài giờ. Số lượng có hạn, nhanh tay kẻo lỡ!',
    tag: 'FLASH_SALE',
    priority: 1,
    startIn: -hour,
    endIn: 3 * hour,
    status: 'ACTIVE',
    pools: [
      {
        category: 'phone',
        brand: 'Điện Máy Xanh',
        title: 'Voucher giảm 100.000đ khi mua điện thoại',
        shortTitle: 'Giảm 100K điện thoại',
        description: 'Giảm ngay 100.000đ cho đơn mua điện thoại từ 2.000.000đ tại Điện Máy Xanh, áp dụng toàn quốc.',
        faceValue: 100_000,
        sellingPrice: 79_000,
        stock: 500,
      },
      {
        category: 'food',
        brand: 'Phở Hà Nội',
        title: 'Phiếu ăn uống 50.000đ tại Phở Hà Nội',
        shortTitle: 'Phở Hà Nội 50K',
        description: 'Thưởng thức phở bò tái nạm chuẩn vị Hà Nội. Phiếu 50.000đ dùng cho mọi món trong thực đơn.',
        faceValue: 50_000,
        sellingPrice: 39_000,
        stock: 1_000,
        terms: offline('Xuất trình mã tại quầy thu ngân. Không quy đổi thành tiền mặt.'),
      },
      {
        category: 'travel',
        brand: 'Xanh SM',
        title: 'Voucher di chuyển 30.000đ Xanh SM',
        shortTitle: 'Xanh SM 30K',
        description: 'Giảm 30.000đ cho chuyến xe điện Xanh SM Taxi hoặc Bike trong nội thành.',
        faceValue: 30_000,
        sellingPrice: 25_000,
        stock: 2_000,
      },
      {
        category: 'phone',
        brand: 'Viettel',
        title: 'Thẻ nạp điện thoại Viettel 200.000đ',
        shortTitle: 'Nạp Viettel 200K',
        description: 'Mã thẻ cào Viettel mệnh giá 200.000đ, nạp cho thuê bao trả trước và trả sau.',
        faceValue: 200_000,
        sellingPrice: 196_000,
        stock: 300,
        terms: { maxPerDay: 2, usageLimit: 4 },
      },
      {
        category: 'drinks',
        brand: 'Highlands Coffee',
        title: 'Cà phê sữa đá size M – Highlands Coffee',
        shortTitle: 'Highlands phin sữa đá',
        description: 'Một ly Phin Sữa Đá size M tại mọi cửa hàng Highlands Coffee.',
        faceValue: 39_000,
        sellingPrice: 35_000,
        stock: 0,
        terms: offline('Áp dụng tại quầy, không áp dụng giao hàng.'),
      },
      {
        category: 'shopping',
        brand: 'Shopee',
        title: 'Mã giảm 50% tối đa 100.000đ trên Shopee',
        shortTitle: 'Shopee giảm 50%',
        description: 'Giảm 50% tối đa 100.000đ cho đơn từ 0đ, áp dụng ngành hàng thời trang và gia dụng.',
        faceValue: 100_000,
        sellingPrice: 60_000,
        stock: 800,
      },
    ],
  },
  {
    key: 'food',
    code: 'AN-NGON-MOI-NGAY',
    name: 'Ăn ngon mỗi ngày – khuyến mãi ẩm thực',
    description: 'Ưu đãi nhà hàng, đồ ăn nhanh và trà sữa quanh bạn: mua voucher rẻ hơn, dùng cả tháng.',
    tag: 'HOT_DEAL',
    priority: 2,
    startIn: -7 * day,
    endIn: 60 * day,
    status: 'ACTIVE',
    pools: [
      {
        category: 'food',
        brand: 'KFC',
        title: 'Combo gà rán 2 miếng + khoai tây + nước – KFC',
        shortTitle: 'KFC combo gà rán',
        description: 'Combo 2 miếng gà giòn cay, 1 khoai tây chiên vừa và 1 Pepsi. Áp dụng ăn tại chỗ và mang đi.',
        faceValue: 99_000,
        sellingPrice: 79_000,
        stock: 1_500,
        terms: offline('Áp dụng tại cửa hàng KFC trên toàn quốc, trừ sân bay.'),
      },
      {
        category: 'food',
        brand: 'Pizza 4P’s',
        title: 'Phiếu quà tặng 500.000đ Pizza 4P’s',
        shortTitle: 'Pizza 4P’s 500K',
        description: 'Phiếu dùng cho bữa tối tại Pizza 4P’s. Đặt bàn trước để có chỗ đẹp.',
        faceValue: 500_000,
        sellingPrice: 450_000,
        stock: 200,
        terms: { ...offline('Đặt bàn trước qua hotline. Không áp dụng ngày lễ.'), maxPerOrder: 2 },
        validForDays: 45,
      },
      {
        category: 'food',
        brand: 'Lotteria',
        title: 'Burger bò phô mai + nước ngọt – Lotteria',
        shortTitle: 'Lotteria burger',
        description: 'Một burger bò phô mai kèm nước ngọt size vừa.',
        faceValue: 65_000,
        sellingPrice: 49_000,
        stock: 1_000,
      },
      {
        category: 'food',
        brand: 'Bánh Mì Huỳnh Hoa',
        title: 'Bánh mì thập cẩm đặc biệt – Huỳnh Hoa',
        shortTitle: 'Bánh mì Huỳnh Hoa',
        description: 'Ổ bánh mì pate, chả lụa, thịt nguội nổi tiếng Sài Gòn.',
        faceValue: 68_000,
        sellingPrice: 60_000,
        stock: 400,
        terms: offline('Nhận tại 26 Lê Thị Riêng, Quận 1.'),
      },
      {
        category: 'drinks',
        brand: 'Phúc Long',
        title: 'Trà sữa Phúc Long size L',
        shortTitle: 'Phúc Long trà sữa L',
        description: 'Một ly trà sữa Phúc Long size L, chọn vị tùy thích.',
        faceValue: 65_000,
        sellingPrice: 52_000,
        stock: 2_000,
      },
      {
        category: 'drinks',
        brand: 'The Coffee House',
        title: 'Cà phê đá xay – The Coffee House',
        shortTitle: 'TCH đá xay',
        description: 'Một ly cà phê đá xay hoặc cookie đá xay size M.',
        faceValue: 59_000,
        sellingPrice: 45_000,
        stock: 1_200,
      },
      {
        category: 'drinks',
        brand: 'Gong Cha',
        title: 'Mua 1 tặng 1 trà sữa trân châu – Gong Cha',
        shortTitle: 'Gong Cha 1+1',
        description: 'Mua một ly trà sữa trân châu bất kỳ size L, tặng một ly cùng loại.',
        faceValue: 70_000,
        sellingPrice: 55_000,
        stock: 600,
        terms: { maxPerDay: 1 },
      },
      {
        category: 'food',
        brand: 'GrabFood',
        title: 'Giảm 40.000đ đơn GrabFood từ 120.000đ',
        shortTitle: 'GrabFood -40K',
        description: 'Giảm 40.000đ cho đơn đồ ăn GrabFood từ 120.000đ, mọi nhà hàng đối tác.',
        faceValue: 40_000,
        sellingPrice: 2_000,
        stock: 3_000,
        currency: 'VPOINT',
      },
    ],
  },
  {
    key: 'travel',
    code: 'DI-CHUYEN-THONG-MINH',
    name: 'Di chuyển thông minh – đi đâu cũng rẻ',
    description: 'Voucher taxi, xe ôm công nghệ, vé xe khách và vé máy bay nội địa.',
    tag: 'HOT_DEAL',
    priority: 3,
    startIn: -3 * day,
    endIn: 30 * day,
    status: 'ACTIVE',
    pools: [
      {
        category: 'travel',
        brand: 'Be',
        title: 'Giảm 25.000đ chuyến beCar',
        shortTitle: 'beCar -25K',
        description: 'Giảm 25.000đ cho chuyến beCar 4 chỗ hoặc 7 chỗ.',
        faceValue: 25_000,
        sellingPrice: 19_000,
        stock: 2_500,
      },
      {
        category: 'travel',
        brand: 'Vietjet Air',
        title: 'Voucher vé máy bay nội địa 300.000đ – Vietjet Air',
        shortTitle: 'Vietjet 300K',
        description: 'Giảm 300.000đ cho vé máy bay nội địa khứ hồi, đặt trên website hoặc ứng dụng Vietjet.',
        faceValue: 300_000,
        sellingPrice: 250_000,
        stock: 150,
        terms: { maxPerOrder: 1, usageLimit: 2 },
        validForDays: 90,
      },
      {
        category: 'travel',
        brand: 'Phương Trang',
        title: 'Vé xe khách Sài Gòn – Đà Lạt giảm 20% – Phương Trang',
        shortTitle: 'Futa giảm 20%',
        description: 'Giảm 20% tối đa 60.000đ vé xe giường nằm tuyến Sài Gòn – Đà Lạt.',
        faceValue: 60_000,
        sellingPrice: 45_000,
        stock: 500,
      },
      {
        category: 'trips',
        brand: 'Vinpearl',
        title: 'Vé VinWonders Nha Trang – người lớn',
        shortTitle: 'VinWonders Nha Trang',
        description: 'Vé vào cổng VinWonders Nha Trang, trọn gói trò chơi và cáp treo vượt biển.',
        faceValue: 950_000,
        sellingPrice: 850_000,
        stock: 120,
        terms: offline('Đổi vé tại quầy trước cổng. Trẻ em dưới 1m miễn phí.'),
        validForDays: 120,
      },
      {
        category: 'travel',
        brand: 'Petrolimex',
        title: 'Phiếu xăng dầu 100.000đ – Petrolimex',
        shortTitle: 'Xăng 100K',
        description: 'Phiếu đổ xăng trị giá 100.000đ tại cây xăng Petrolimex.',
        faceValue: 100_000,
        sellingPrice: 97_000,
        stock: 1_000,
        terms: offline('Xuất trình mã QR khi thanh toán tại cây xăng.'),
      },
    ],
  },
  {
    key: 'shopping',
    code: 'MUA-SAM-CUOI-TUAN',
    name: 'Mua sắm thả ga cuối tuần',
    description: 'Siêu thị, thời trang, điện máy: voucher giảm giá cho cả nhà.',
    tag: 'HOT_DEAL',
    priority: 4,
    startIn: -2 * day,
    endIn: 20 * day,
    status: 'ACTIVE',
    pools: [
      {
        category: 'shopping',
        brand: 'Co.opmart',
        title: 'Phiếu mua hàng 200.000đ – Co.opmart',
        shortTitle: 'Co.opmart 200K',
        description: 'Phiếu mua hàng dùng cho mọi mặt hàng tại hệ thống siêu thị Co.opmart.',
        faceValue: 200_000,
        sellingPrice: 185_000,
        stock: 800,
        terms: offline('Không áp dụng cho sữa công thức cho trẻ dưới 24 tháng.'),
      },
      {
        category: 'shopping',
        brand: 'Bách Hóa Xanh',
        title: 'Giảm 30.000đ đơn từ 300.000đ – Bách Hóa Xanh',
        shortTitle: 'BHX -30K',
        description: 'Áp dụng mua online và tại cửa hàng Bách Hóa Xanh.',
        faceValue: 30_000,
        sellingPrice: 15_000,
        stock: 5_000,
      },
      {
        category: 'shopping',
        brand: 'Tiki',
        title: 'Mã giảm 15% sách tiếng Việt – Tiki',
        shortTitle: 'Tiki sách -15%',
        description: 'Giảm 15% tối đa 50.000đ cho sách tiếng Việt do Tiki Trading bán.',
        faceValue: 50_000,
        sellingPrice: 20_000,
        stock: 1_000,
      },
      {
        category: 'phone',
        brand: 'Thế Giới Di Động',
        title: 'Giảm 500.000đ khi mua iPhone – Thế Giới Di Động',
        shortTitle: 'TGDĐ iPhone -500K',
        description: 'Giảm 500.000đ cho iPhone chính hãng VN/A, trả góp 0%.',
        faceValue: 500_000,
        sellingPrice: 390_000,
        stock: 100,
        terms: { maxPerOrder: 1, usageLimit: 1 },
      },
      {
        category: 'phone',
        brand: 'MobiFone',
        title: 'Gói data 4G 30GB trong 30 ngày – MobiFone',
        shortTitle: 'MobiFone 30GB',
        description: 'Gói 30GB tốc độ cao, dùng trong 30 ngày, đăng ký bằng mã voucher.',
        faceValue: 120_000,
        sellingPrice: 99_000,
        stock: 700,
      },
      {
        category: 'beauty',
        brand: 'Guardian',
        title: 'Phiếu mua mỹ phẩm 100.000đ – Guardian',
        shortTitle: 'Guardian 100K',
        description: 'Dùng cho chăm sóc da, trang điểm và thực phẩm chức năng tại Guardian.',
        faceValue: 100_000,
        sellingPrice: 85_000,
        stock: 400,
      },
    ],
  },
  {
    key: 'fun',
    code: 'GIAI-TRI-CUOI-TUAN',
    name: 'Giải trí cuối tuần – xem phim, nghe nhạc',
    description: 'Vé xem phim, gói nghe nhạc và truyền hình với giá thành viên.',
    tag: 'NEW',
    priority: 5,
    startIn: -day,
    endIn: 45 * day,
    status: 'ACTIVE',
    pools: [
      {
        category: 'fun',
        brand: 'CGV',
        title: 'Vé xem phim 2D – CGV',
        shortTitle: 'CGV 2D',
        description: 'Một vé xem phim 2D mọi suất chiếu từ thứ Hai đến thứ Năm.',
        faceValue: 110_000,
        sellingPrice: 79_000,
        stock: 1_000,
        terms: { maxPerDay: 4 },
      },
      {
        category: 'fun',
        brand: 'Galaxy Cinema',
        title: 'Combo bắp nước – Galaxy Cinema',
        shortTitle: 'Galaxy bắp nước',
        description: 'Một bắp rang bơ lớn và hai nước ngọt.',
        faceValue: 89_000,
        sellingPrice: 69_000,
        stock: 600,
        terms: offline('Đổi tại quầy bắp nước.'),
      },
      {
        category: 'fun',
        brand: 'FPT Play',
        title: 'Gói FPT Play Max 3 tháng',
        shortTitle: 'FPT Play 3 tháng',
        description: 'Xem bóng đá, phim bộ và truyền hình trên 4 thiết bị trong 3 tháng.',
        faceValue: 300_000,
        sellingPrice: 240_000,
        stock: 300,
      },
      {
        category: 'fun',
        brand: 'Zing MP3',
        title: 'Zing MP3 VIP 1 tháng',
        shortTitle: 'Zing MP3 VIP',
        description: 'Nghe nhạc không quảng cáo, tải nhạc chất lượng cao.',
        faceValue: 49_000,
        sellingPrice: 1_500,
        stock: 2_000,
        currency: 'VPOINT',
      },
    ],
  },
  {
    key: 'presale',
    code: 'SIEU-SALE-TET',
    name: 'Siêu sale Tết – đặt trước ưu đãi',
    description: 'Voucher Tết giảm sâu: xem trước ngay hôm nay, mở bán khi chương trình bắt đầu.',
    tag: 'FLASH_SALE',
    priority: 1,
    presaleIn: -day,
    startIn: 2 * day,
    endIn: 9 * day,
    teaser: 'Sắp mở bán: voucher Tết giảm đến 70%',
    status: 'ACTIVE',
    pools: [
      {
        category: 'shopping',
        brand: 'Lazada',
        title: 'Mã giảm 70% tối đa 150.000đ – Lazada Tết',
        shortTitle: 'Lazada Tết -70%',
        description: 'Giảm 70% tối đa 150.000đ, áp dụng mọi ngành hàng trong dịp Tết.',
        faceValue: 150_000,
        sellingPrice: 49_000,
        stock: 1_000,
      },
      {
        category: 'food',
        brand: 'Kinh Đô',
        title: 'Hộp bánh Tết Kinh Đô – giảm 100.000đ',
        shortTitle: 'Bánh Tết Kinh Đô',
        description: 'Giảm 100.000đ khi mua hộp quà bánh Tết Kinh Đô.',
        faceValue: 100_000,
        sellingPrice: 59_000,
        stock: 500,
      },
      {
        category: 'trips',
        brand: 'Vietravel',
        title: 'Tour du xuân Đà Nẵng – Hội An giảm 1.000.000đ',
        shortTitle: 'Tour Đà Nẵng -1TR',
        description: 'Giảm 1.000.000đ cho tour 3 ngày 2 đêm Đà Nẵng – Hội An dịp Tết.',
        faceValue: 1_000_000,
        sellingPrice: 690_000,
        stock: 50,
        terms: { maxPerOrder: 1 },
      },
      {
        category: 'phone',
        brand: 'Vinaphone',
        title: 'Lì xì data Vinaphone 10GB',
        shortTitle: 'Vinaphone 10GB',
        description: 'Tặng người thân gói 10GB dùng trong 7 ngày Tết.',
        faceValue: 50_000,
        sellingPrice: 35_000,
        stock: 2_000,
      },
    ],
  },
  {
    key: 'paused',
    code: 'SUC-KHOE-VANG',
    name: 'Sức khỏe vàng – tạm dừng',
    description: 'Chương trình tạm dừng để cập nhật ưu đãi: không hiển thị trên cửa hàng.',
    tag: 'HOT_DEAL',
    priority: 6,
    startIn: -5 * day,
    endIn: 25 * day,
    status: 'PAUSED',
    pools: [
      {
        category: 'beauty',
        brand: 'Pharmacity',
        title: 'Phiếu mua thuốc và vitamin 100.000đ – Pharmacity',
        shortTitle: 'Pharmacity 100K',
        description: 'Dùng cho vitamin, thực phẩm chức năng và dược mỹ phẩm.',
        faceValue: 100_000,
        sellingPrice: 90_000,
        stock: 300,
      },
      {
        category: 'beauty',
        brand: 'California Fitness',
        title: 'Thẻ tập gym 1 tháng – California Fitness',
        shortTitle: 'Gym 1 tháng',
        description: 'Tập không giới hạn một tháng tại câu lạc bộ gần nhất.',
        faceValue: 1_200_000,
        sellingPrice: 899_000,
        stock: 80,
      },
    ],
  },
];

export const iso = (ms: number) => new Date(ms).toISOString();

export function campaignInput(c: DemoCampaign, now: number): CampaignInput {
  const art = `${cdn}/campaigns/${slug(c.code)}`;
  const banner = (channelCode: 'APP' | 'WEB', positionCode: 'CAROUSEL' | 'DETAIL_TOP', displayOrder: number) => ({
    channelCode,
    positionCode,
    assetUrl: `${art}/${channelCode.toLowerCase()}-${positionCode.toLowerCase()}.${c.key === 'flash' && positionCode === 'DETAIL_TOP' ? 'mp4' : 'jpg'}`,
    assetType: (c.key === 'flash' && positionCode === 'DETAIL_TOP' ? 'VIDEO' : 'IMAGE') as 'VIDEO' | 'IMAGE',
    altText: c.name,
    clickUrl:
      channelCode === 'APP'
        ? `superapp://shop/campaigns/${slug(c.code)}`
        : `https://shop.example.vn/khuyen-mai/${slug(c.code)}`,
    displayOrder,
  });
  return {
    code: c.code,
    name: c.name,
    description: c.description,
    campaignTag: c.tag,
    type: 'SELL',
    displayPriority: c.priority,
    themeUrl: `${art}/theme.jpg`,
    startAt: iso(now + c.startIn),
    endAt: iso(now + c.endIn),
    presale:
      c.presaleIn === undefined
        ? null
        : {
            enabled: true,
            startAt: iso(now + c.presaleIn),
            countdownEnabled: true,
            teaserText: c.teaser ?? '',
            teaserImageUrl: `${art}/teaser.jpg`,
          },
    banners: [
      banner('APP', 'CAROUSEL', 1),
      banner('WEB', 'CAROUSEL', 1),
      banner('APP', 'DETAIL_TOP', 2),
      banner('WEB', 'DETAIL_TOP', 2),
    ],
  };
}

export const defaultTerms: PoolTerms = {
  usageType: 'ONLINE',
  termsAndConditions: 'Mỗi mã dùng một lần. Không quy đổi thành tiền mặt, không áp dụng cùng chương trình khác.',
  validityDays: 30,
  usageLimit: 10,
  maxPerDay: 5,
  maxPerOrder: 5,
};
